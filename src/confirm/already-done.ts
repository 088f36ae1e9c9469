/**
 * A change the record already shows: cancelling a cancelled task, decommissioning
 * a decommissioned record (a remove of one in use included). A rerun after an
 * interrupt meets it for every record the first run finished, and the service
 * refuses it (a 409); read back, such a record counts as done ("already
 * cancelled"), so the rerun converges and exits 0 when nothing else failed. A
 * record that is gone is not: a delete of an id not found may be a mistyped id as
 * well as one deleted before (kubectl says not found too), so it stays a 404.
 */
import { operation, verbOf, type OperationId } from '../contract/operations.js';
import { isRecordRejection } from '../bulk/record-rejection.js';
import type { PlaClient } from '../client/types.js';
import { readBack } from './read-back.js';

/** The verbs whose wanted state a record can already be in, and a read back shows on the record. */
const STATE_VERBS = new Set(['cancel', 'decommission', 'remove']);

/** A record found already as the change wanted it: its record now, and how that was found. */
export interface AlreadyDone {
  record: Record<string, unknown>;
  /** "already cancelled; read back: CANCELLED". */
  how: string;
}

/** Whether a refusal of `operationId` may mean the record was already as it wanted (worth reading back). */
export function mayBeAlreadyDone(operationId: OperationId, error: unknown): boolean {
  return STATE_VERBS.has(verbOf(operationId) ?? '') && isRecordRejection(error);
}

/**
 * After the service refused `operationId` for `sent` (an id) with `error`: the
 * record read back, when it already is as the change wanted; else undefined (the
 * refusal stands). A read that fails leaves the refusal as it was.
 */
export async function alreadyDone(
  client: PlaClient,
  operationId: OperationId,
  sent: unknown,
  error: unknown,
  signal?: AbortSignal,
): Promise<AlreadyDone | undefined> {
  if (!mayBeAlreadyDone(operationId, error)) return undefined;
  const verdict = await readBack(client, operationId, sent, signal);
  if (verdict.kind !== 'confirmed' || !verdict.record) return undefined;
  return { record: verdict.record, how: `already ${String(operation(operationId).done ?? 'done')}; ${verdict.how}` };
}
