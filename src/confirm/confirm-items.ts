/**
 * What the service confirmed of one bulk request: each item confirmed (with what
 * the service answered or what reading back found), refused (the answer or the
 * read back says it was not done) or of unknown outcome. Items the answer does
 * not account for, and every item of an answer pla cannot read (an HTML page
 * answered 200), are read back one by one where a read exists.
 */
import { BULK_DEFAULTS } from '../bulk/defaults.js';
import { TaskPool } from '../bulk/pool.js';
import type { CallResult, PlaClient } from '../client/types.js';
import { operation, type OperationId } from '../contract/operations.js';
import { UnreadableAnswerError } from '../errors.js';
import { itemResults, type ItemResult } from './item-results.js';
import { readBack, type Verdict } from './read-back.js';

export interface ConfirmedItems<T> {
  /** `readBack`: confirmed by reading the record back, with the record as it is now (none: it is gone). */
  confirmed: Array<{ item: T; answer?: unknown; readBack?: { record?: Record<string, unknown> } }>;
  refused: Array<{ item: T; reason: string }>;
  unknown: Array<{ item: T; reason: string }>;
}

/** Reads back every item at `indexes`, a few at a time. */
async function readBackAll(
  client: PlaClient,
  operationId: OperationId,
  values: readonly unknown[],
  indexes: number[],
  signal?: AbortSignal,
): Promise<Map<number, Verdict>> {
  const verdicts = new Map<number, Verdict>();
  const pool = new TaskPool(BULK_DEFAULTS.perItemConcurrency);
  let failure: { error: unknown } | undefined;
  for (const index of indexes) {
    await pool.whenFree();
    if (failure) break;
    pool.start(() =>
      readBack(client, operationId, values[index], signal).then(
        (verdict) => void verdicts.set(index, verdict),
        (error: unknown) => void (failure ??= { error }),
      ),
    );
  }
  await pool.drain();
  if (failure) throw failure.error;
  return verdicts;
}

/**
 * Sorts the `items` of one bulk request by what the service confirmed: `answer`
 * is its answer, or the error saying it could not be read. `valueOf` gives what
 * was sent for an item.
 */
export async function confirmItems<T>(
  client: PlaClient,
  operationId: OperationId,
  items: readonly T[],
  valueOf: (item: T) => unknown,
  answer: CallResult | UnreadableAnswerError,
  signal?: AbortSignal,
): Promise<ConfirmedItems<T>> {
  const values = items.map(valueOf);
  const unreadable = answer instanceof UnreadableAnswerError;
  const results: ItemResult[] = unreadable ? items.map(() => ({ kind: 'missing' })) : itemResults(operation(operationId), values, answer);
  const missing = results.flatMap((result, i) => (result.kind === 'missing' ? [i] : []));
  const verdicts = await readBackAll(client, operationId, values, missing, signal);
  const unanswered = unreadable ? `the answer was ${answer.saw}` : 'the answer left it out';
  const sorted: ConfirmedItems<T> = { confirmed: [], refused: [], unknown: [] };
  for (const [i, item] of items.entries()) {
    const result = results[i] as ItemResult;
    if (result.kind === 'confirmed') sorted.confirmed.push({ item, ...(result.answer !== undefined ? { answer: result.answer } : {}) });
    else if (result.kind === 'failed') sorted.refused.push({ item, reason: result.reason });
    else {
      const verdict = verdicts.get(i) as Verdict;
      if (verdict.kind === 'confirmed')
        sorted.confirmed.push({ item, ...(verdict.record ? { answer: verdict.record } : {}), readBack: verdict.record ? { record: verdict.record } : {} });
      else if (verdict.kind === 'not-applied') sorted.refused.push({ item, reason: `${unanswered}; ${verdict.reason}` });
      else sorted.unknown.push({ item, reason: `${unanswered}; ${verdict.reason}` });
    }
  }
  return sorted;
}
