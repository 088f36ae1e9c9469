/**
 * A change the record already shows: cancelling a cancelled task, decommissioning
 * a decommissioned record (a remove of one in use included). A rerun after an
 * interrupt meets it for every record the first run finished, and the service
 * refuses it (a 409); read back, such a record counts as done ("already
 * cancelled"), so the rerun converges and exits 0 when nothing else failed.
 *
 * A record that is gone counts as done only when there is reason to: a delete of
 * an id not found may be a mistyped id as well as one deleted before (kubectl says
 * not found too), so it stays a 404 unless the command was told
 * `--ignore-not-found` (as `kubectl delete --ignore-not-found`) or the id was sent
 * by this run before (a batch an earlier attempt left in flight): then a 404 read
 * back as not found is "already gone", once the resource's listing has answered
 * (a base URL whose path prefix is wrong answers 404 to every path, the read back
 * included: without that check, every id would pass for gone and exit 0).
 */
import { operation, removesRecords, verbOf, type OperationId } from '../contract/operations.js';
import { isRecordRejection } from '../bulk/record-rejection.js';
import type { PlaClient } from '../client/types.js';
import { NotFoundError } from '../errors.js';
import { readBack } from './read-back.js';

/** The verbs whose wanted state a record can already be in, and a read back shows on the record. */
const STATE_VERBS = new Set(['cancel', 'decommission', 'remove']);

/** When a record not found counts as done. */
export interface DoneRules {
  /** `--ignore-not-found`, or ids this run sent before: a delete or remove answered 404 is done, "already gone". */
  goneIsDone?: boolean;
}

/** A record found already as the change wanted it: its record now (none: gone), and how that was found. */
export interface AlreadyDone {
  record?: Record<string, unknown>;
  /** "already cancelled; read back: CANCELLED", "already gone; read back: not found". */
  how: string;
}

/** Per client, whether each listing answered (asked once: a bulk run meets many 404s). */
const listings = new WeakMap<PlaClient, Map<OperationId, Promise<boolean>>>();

/**
 * Whether the listing of the resource `operationId` acts on answers, so that a 404
 * by id is the record's and not the base URL's (a wrong path prefix answers 404 to
 * every path). True where there is no listing to ask without parameters
 * (notifications, images): there the 404 is all there is.
 */
export function listingAnswers(client: PlaClient, operationId: OperationId, signal?: AbortSignal): Promise<boolean> {
  const { list } = operation(operationId);
  if (list === undefined || (operation(list).pathParams?.length ?? 0) > 0) return Promise.resolve(true);
  const asked = listings.get(client) ?? new Map<OperationId, Promise<boolean>>();
  listings.set(client, asked);
  const known = asked.get(list);
  if (known) return known;
  const answered = client.page(list, { paging: { page: 0, size: 1 }, ...(signal ? { signal } : {}) }).then(
    () => true,
    (error: unknown) => {
      // The interrupt is the run's, not the listing's.
      if (signal?.aborted) throw error;
      return false;
    },
  );
  asked.set(list, answered);
  return answered;
}

/** Whether the refusal is a 404 of a delete or remove the rules let count as done. */
function goneAsAsked(operationId: OperationId, error: unknown, rules: DoneRules): boolean {
  return rules.goneIsDone === true && error instanceof NotFoundError && removesRecords(operationId);
}

/** Whether a refusal of `operationId` may mean the record was already as it wanted (worth reading back). */
export function mayBeAlreadyDone(operationId: OperationId, error: unknown, rules: DoneRules = {}): boolean {
  return (STATE_VERBS.has(verbOf(operationId) ?? '') && isRecordRejection(error)) || goneAsAsked(operationId, error, rules);
}

/**
 * After the service refused `operationId` for `sent` (an id) with `error`: the
 * record read back, when it already is as the change wanted; else undefined (the
 * refusal stands). A read that fails leaves the refusal as it was. Gone counts
 * only under `rules`, and only once the listing answered (`listingAnswers`);
 * where there is no read, the 404 itself says so.
 */
export async function alreadyDone(
  client: PlaClient,
  operationId: OperationId,
  sent: unknown,
  error: unknown,
  signal?: AbortSignal,
  rules: DoneRules = {},
): Promise<AlreadyDone | undefined> {
  if (!mayBeAlreadyDone(operationId, error, rules)) return undefined;
  const gone = goneAsAsked(operationId, error, rules);
  if (gone && operation(operationId).read === undefined) return { how: 'already gone: the service answered not found' };
  const verdict = await readBack(client, operationId, sent, signal);
  if (verdict.kind !== 'confirmed') return undefined;
  if (verdict.record) return { record: verdict.record, how: `already ${String(operation(operationId).done ?? 'done')}; ${verdict.how}` };
  return gone && (await listingAnswers(client, operationId, signal)) ? { how: `already gone; ${verdict.how}` } : undefined;
}
