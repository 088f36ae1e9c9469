/**
 * Whether a record read back after a remove or a decommission is decommissioned.
 * The interface document does not show decommission states, so pla does not take
 * its own word (`DECOMMISSIONED`) for the service's: the environment's wire profile
 * names it (`decommissioned=RETIRED`, or `lifecycle:ARCHIVED` for another field;
 * learnt by `pla config detect`, set with `pla config set-wire`). Without it a
 * record still there after a remove is unconfirmed, never "decommissioned".
 */
import { fieldOf } from '../client/objects.js';

/** What a record read back says: decommissioned as the profile names it, not, or unknown (no name to judge by). */
export type DecommissionState = 'decommissioned' | 'not' | 'unknown';

/** The field and value a profile's `decommissioned` names (`RETIRED`: the status; `lifecycle:ARCHIVED`). */
function named(spec: string): { field: string; value: string } {
  const at = spec.indexOf(':');
  return at < 0 ? { field: 'status', value: spec } : { field: spec.slice(0, at), value: spec.slice(at + 1) };
}

/** The state of `record` by the profile's name for decommissioned (`spec`), letters' case aside. */
export function decommissionState(record: Record<string, unknown>, spec: string | undefined): DecommissionState {
  if (spec === undefined) return 'unknown';
  const { field, value } = named(spec);
  const held = fieldOf(record, field);
  return typeof held === 'string' && held.toUpperCase() === value.toUpperCase() ? 'decommissioned' : 'not';
}

/** What `record`'s state field holds, for messages (`status ACTIVE`). */
export function stateWords(record: Record<string, unknown>, spec: string | undefined): string {
  const field = spec === undefined ? 'status' : named(spec).field;
  const held = fieldOf(record, field);
  return typeof held === 'string' ? `${field} ${held}` : `no ${field}`;
}

/** The hint for a remove left unconfirmed: how to name the service's decommissioned state. */
export const NAME_DECOMMISSIONED_HINT =
  'say what a decommissioned record looks like on this service: pla config set-wire decommissioned=VALUE (its status) or decommissioned=FIELD:VALUE, or pla config detect';
