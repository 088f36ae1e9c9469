/**
 * What a remove did to each id: deleted, or decommissioned because the record is
 * still in use. The spec leaves the answer open (ResponseVoid; "what is deleted,
 * what is kept: not shown"). The local server's message names the ids
 * ("deleted 1, 2; decommissioned 3 (in use, kept)"); ids a message does not name
 * are read back, which works against any service: gone means deleted; still
 * there is decommissioned only in the state the wire profile names so, else
 * unconfirmed (src/confirm/decommissioned.ts).
 */
import { BULK_DEFAULTS } from '../../bulk/defaults.js';
import { TaskPool } from '../../bulk/pool.js';
import type { PlaClient } from '../../client/types.js';
import type { OperationId } from '../../contract/operations.js';
import { isObject } from '../../client/objects.js';
import { InvalidAnswerError, NotFoundError, PartialFailureError, type PlaError, RejectedError } from '../../errors.js';
import { decommissionState, NAME_DECOMMISSIONED_HINT } from '../../confirm/decommissioned.js';
import type { RecordId } from '../../io/input/typed-ids.js';
import { outcomesNamed } from '../../confirm/remove-message.js';

/**
 * What a remove did to one id. `not removed`: read back, the record is there and
 * not in the state the wire profile names decommissioned (the service did
 * neither). `unconfirmed`: it is there and no profile names what decommissioned
 * looks like on this service, so pla cannot tell (the spec does not show it).
 */
export type RemoveOutcome = 'deleted' | 'decommissioned (in use)' | 'removed' | 'gone (already)' | 'unconfirmed' | 'not removed';

export interface RemovedRow {
  /** The id as sent (exact past 2^53; text on the notification side). */
  id: number | bigint | string;
  outcome: RemoveOutcome;
}

/** Ids as given: typed ids, or text where the service takes either. */
type Id = RecordId | string;

/** What a record read back after a remove says of it, by the profile's name for decommissioned. */
function keptAs(record: unknown, decommissioned: string | undefined): RemoveOutcome {
  if (!isObject(record)) return 'unconfirmed';
  const state = decommissionState(record, decommissioned);
  return state === 'decommissioned' ? 'decommissioned (in use)' : state === 'not' ? 'not removed' : 'unconfirmed';
}

/** Reads `id` back through `lookup`: not found is deleted; found is decommissioned when its fields say so. */
async function readBack(client: PlaClient, lookup: OperationId, id: Id, signal: AbortSignal): Promise<RemoveOutcome> {
  try {
    return keptAs((await client.call(lookup, { params: { id }, signal })).data, client.wire?.decommissioned);
  } catch (error) {
    if (error instanceof NotFoundError) return 'deleted';
    throw error;
  }
}

/**
 * What happened to each of `ids` (in their order, once each) after a remove that
 * answered `message`. Without a `lookup` operation, ids the message does not
 * name are only known to be removed.
 */
export async function removeOutcomes(
  client: PlaClient,
  lookup: OperationId | undefined,
  ids: readonly Id[],
  message: string | undefined,
  signal: AbortSignal,
  readBefore?: ReadonlyArray<{ record?: Record<string, unknown> } | undefined>,
): Promise<RemovedRow[]> {
  const outcomes = new Map<Id, RemoveOutcome>(outcomesNamed(message));
  // Ids the bulk confirmation already read back (src/confirm) are not read again.
  for (const [i, found] of (readBefore ?? []).entries()) {
    const id = ids[i];
    if (found && id !== undefined && !outcomes.has(id)) outcomes.set(id, found.record ? keptAs(found.record, client.wire?.decommissioned) : 'deleted');
  }
  const pool = new TaskPool(BULK_DEFAULTS.perItemConcurrency);
  let failure: { error: unknown } | undefined;
  for (const id of new Set(ids)) {
    if (outcomes.has(id)) continue;
    if (!lookup) {
      outcomes.set(id, 'removed');
      continue;
    }
    await pool.whenFree();
    if (failure) break;
    pool.start(() =>
      readBack(client, lookup, id, signal).then(
        (outcome) => void outcomes.set(id, outcome),
        (error: unknown) => void (failure ??= { error }),
      ),
    );
  }
  await pool.drain();
  if (failure) throw failure.error;
  return [...new Set(ids)].map((id) => ({ id, outcome: outcomes.get(id) as RemoveOutcome }));
}

/** The rows of ids found gone before this remove (`--ignore-not-found`, src/confirm/already-done.ts): "gone (already)", not deleted by it. */
export function goneAlready(rows: readonly RemovedRow[]): RemovedRow[] {
  return rows.map((row) => (row.outcome === 'deleted' ? { ...row, outcome: 'gone (already)' } : row));
}

/** "deleted 2, decommissioned 1 (in use)": the counts of a remove's outcomes. */
export function outcomeCounts(rows: readonly RemovedRow[]): string {
  const counts = new Map<RemoveOutcome, number>();
  for (const row of rows) counts.set(row.outcome, (counts.get(row.outcome) ?? 0) + 1);
  return [...counts].map(([outcome, n]) => outcome.replace(/^(\w+)/, `$1 ${n}`)).join(', ');
}

/**
 * The error a remove ends with when some ids are still there (read back): not
 * decommissioned as the profile names it (the service did not do what it
 * answered), or with no profile naming decommissioned, unconfirmed.
 */
export function notRemovedError(rows: readonly RemovedRow[]): PlaError | undefined {
  const left = rows.filter((row) => row.outcome === 'not removed').map((row) => row.id);
  const unsure = rows.filter((row) => row.outcome === 'unconfirmed').map((row) => row.id);
  if (left.length === 0 && unsure.length === 0) return undefined;
  const are = (ids: unknown[]) => `${ids.join(', ')} ${ids.length === 1 ? 'is' : 'are'}`;
  if (left.length > 0) {
    const message = `not removed: ${are(left)} still there and not decommissioned (read back), although the service answered success`;
    const hint = 'check them with `pla det get`; the service may have refused without saying so';
    return rows.length === 1 ? new RejectedError(message, 200, undefined) : new PartialFailureError(message, { hint });
  }
  const message = `unconfirmed: ${are(unsure)} still there after the remove (read back), and pla cannot tell whether that is decommissioned on this service`;
  if (rows.length > 1) return new PartialFailureError(message, { hint: NAME_DECOMMISSIONED_HINT });
  const error = new InvalidAnswerError(message, { hint: NAME_DECOMMISSIONED_HINT });
  error.outcomeUnknown = true;
  return error;
}
