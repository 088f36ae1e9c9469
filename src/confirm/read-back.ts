/**
 * Checking a change by reading the record back, for a write whose answer did not
 * confirm it (an HTML page answered 200, an item a bulk answer left out): deleted
 * is a 404 or a soft 404, cancelled is the task's state, decommissioned the
 * record's status, updated the fields as sent. A create cannot be read back (it
 * names no record), nor can anything when the read fails: those are unknown.
 */
import type { PlaClient } from '../client/types.js';
import { operation, verbOf, type OperationId } from '../contract/operations.js';
import { NotFoundError, PlaError } from '../errors.js';
import { parseId, type RecordId } from '../io/input/typed-ids.js';
import { asRecord, changedFields } from '../plan/record-diff.js';
import { fieldOf, idOf } from '../client/objects.js';
import { decommissionState, NAME_DECOMMISSIONED_HINT, stateWords } from './decommissioned.js';

/** What a change came to. */
export type Verdict =
  | { kind: 'confirmed'; /** The record as it is now, when it still exists. */ record?: Record<string, unknown>; how: string }
  | { kind: 'not-applied'; reason: string }
  | { kind: 'unknown'; reason: string };

/** The id an item of a write names: the id itself, or a record's `id` (any case: `Id`). */
export function itemId(value: unknown): RecordId | undefined {
  const record = asRecord(value);
  return parseId(record ? idOf(record) : value);
}

/** The status field as read back (any case: `Status`), upper-cased, or undefined. */
function statusOf(record: Record<string, unknown>): string | undefined {
  const status = fieldOf(record, 'status');
  return typeof status === 'string' ? status.toUpperCase() : undefined;
}

/**
 * What `verb` leaves behind, judged on the record as read back (`undefined`: the
 * record is gone). `decommissioned` is the profile's name for that state: a remove
 * leaving the record there is confirmed only by it; a decommission goes by it, else
 * by the verb's own word.
 */
function judge(verb: string, sent: unknown, current: Record<string, unknown> | undefined, decommissioned: string | undefined): Verdict {
  const gone = current === undefined;
  switch (verb) {
    case 'delete':
      return gone ? { kind: 'confirmed', how: 'read back: not found' } : { kind: 'not-applied', reason: 'read back: the record is still there' };
    case 'remove': {
      if (gone) return { kind: 'confirmed', how: 'read back: not found' };
      const state = decommissionState(current, decommissioned);
      if (state === 'decommissioned') return { kind: 'confirmed', record: current, how: 'read back: decommissioned' };
      const still = `read back: the record is still there (${stateWords(current, decommissioned)})`;
      return state === 'not'
        ? { kind: 'not-applied', reason: `${still}, not ${decommissioned ?? ''}` }
        : { kind: 'unknown', reason: `${still}; whether that is decommissioned is not known (${NAME_DECOMMISSIONED_HINT})` };
    }
    case 'decommission':
      if (gone) return { kind: 'not-applied', reason: 'read back: the record is not found' };
      return decommissionState(current, decommissioned ?? 'DECOMMISSIONED') === 'decommissioned'
        ? { kind: 'confirmed', record: current, how: 'read back: decommissioned' }
        : { kind: 'not-applied', reason: `read back: the record is ${statusOf(current) ?? 'without a status'}` };
    case 'cancel':
      if (gone) return { kind: 'not-applied', reason: 'read back: the task is not found' };
      return statusOf(current) === 'CANCELLED'
        ? { kind: 'confirmed', record: current, how: 'read back: CANCELLED' }
        : { kind: 'not-applied', reason: `read back: the task is ${statusOf(current) ?? 'without a status'}` };
    case 'update':
    case 'upsert': {
      if (gone) return { kind: 'not-applied', reason: 'read back: the record is not found' };
      const differ = changedFields(current, asRecord(sent) ?? {}).map((change) => change.field);
      return differ.length === 0
        ? { kind: 'confirmed', record: current, how: 'read back: fields as sent' }
        : { kind: 'not-applied', reason: `read back: ${differ.slice(0, 3).join(', ')}${differ.length > 3 ? ', …' : ''} not as sent` };
    }
    default:
      return { kind: 'unknown', reason: `a ${verb} cannot be read back` };
  }
}

/**
 * Reads back what a write of `operationId` did to the item `sent` (an id, or a
 * record). Never throws for the item's sake: a read that fails leaves it unknown.
 */
export async function readBack(client: PlaClient, operationId: OperationId, sent: unknown, signal?: AbortSignal): Promise<Verdict> {
  const op = operation(operationId);
  const verb = verbOf(op.id) ?? op.id;
  const { read } = op;
  const id = itemId(sent);
  if (read === undefined) return { kind: 'unknown', reason: `there is no read to check a ${verb} with` };
  if (id === undefined) return { kind: 'unknown', reason: `a ${verb} of a record without an id cannot be read back` };
  if (verb === 'create') return { kind: 'unknown', reason: 'a create cannot be read back' };
  try {
    const { data } = await client.call(read, { params: { id }, ...(signal ? { signal } : {}) });
    return judge(verb, sent, asRecord(data), client.wire?.decommissioned);
  } catch (error) {
    if (error instanceof NotFoundError) return judge(verb, sent, undefined, client.wire?.decommissioned);
    // The interrupt is the run's, not the item's.
    if (signal?.aborted) throw error;
    return { kind: 'unknown', reason: `reading it back failed: ${error instanceof PlaError ? error.message : String(error)}` };
  }
}
