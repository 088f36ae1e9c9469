/**
 * Reading a bulk answer item by item. A service that applies a bulk request item
 * by item says so per item (`[{"id": 10, "cancelled": false, "reason": …}]`, a
 * record with `"success": false`, a per-item status): those results decide each
 * item, whatever the request's status said. Items are matched to the answer by
 * id where both carry ids, else by position when the counts agree; an item the
 * answer does not account for is `missing` (to be read back).
 */
import type { CallResult } from '../client/types.js';
import { failureWords, flag, RESULT_FIELDS, statedFailure } from '../client/failure-signals.js';
import { isObject } from '../client/objects.js';
import { type Operation, verbOf } from '../contract/operations.js';
import { asRecord } from '../plan/record-diff.js';
import { itemId } from './read-back.js';
import { outcomesNamed } from './remove-message.js';

/** What the answer says of one item. */
export type ItemResult = { kind: 'confirmed'; answer?: unknown } | { kind: 'failed'; reason: string } | { kind: 'missing' };

/** The id an element of the answer names: a bare id, or an object's `id`. */
function elementId(element: unknown): string | undefined {
  const id = itemId(element);
  return id === undefined ? undefined : String(id);
}

/** What one element of the answer (or a single write's whole answer) says of the item `sent`. */
export function judgeElement(op: Operation, sent: unknown, element: unknown): ItemResult {
  const done = op.done ?? 'done';
  if (flag(element) === true) return { kind: 'confirmed' };
  if (flag(element) === false) return { kind: 'failed', reason: `not ${done} (the service answered false)` };
  if (!isObject(element)) return { kind: 'confirmed' };
  const sentRecord = asRecord(sent);
  const record = Object.keys(element).some((field) => !RESULT_FIELDS.has(field) && field !== 'id' && field !== done && field !== 'data' && field !== 'record');
  const failure = statedFailure(element, { ...(sentRecord ? { sent: sentRecord } : {}), record, item: true });
  if (failure) return { kind: 'failed', reason: failure.message };
  // `cancelled: false`, `deleted: false`: the operation's own word for it.
  if (flag(element[done]) === false) return { kind: 'failed', reason: failureWords(element) ?? `not ${done}` };
  if (verbOf(op.id) === 'cancel' && flag(element.cancelled) !== true && typeof element.status === 'string' && element.status.toUpperCase() !== 'CANCELLED') {
    return { kind: 'failed', reason: failureWords(element) ?? `the task is ${element.status}` };
  }
  const wrapped = isObject(element.data) ? element.data : isObject(element.record) ? element.record : undefined;
  return { kind: 'confirmed', answer: wrapped ?? element };
}

/**
 * The answer's elements matched to the items sent, by id when both sides carry ids
 * (not for a create: the service gives the ids), else by position. An upsert may
 * answer an id it was sent with a record under a new id (the service did not know
 * the id, so it created): when the answer has one element per item, an item its id
 * did not match takes the element at its own position, if no other item claimed it.
 */
function matched(op: Operation, sent: readonly unknown[], elements: readonly unknown[]): Array<unknown | typeof MISSING> {
  const sentIds = sent.map(itemId);
  const elementIds = elements.map(elementId);
  const samePositions = elements.length === sent.length;
  if (verbOf(op.id) !== 'create' && sentIds.every((id) => id !== undefined) && elementIds.every((id) => id !== undefined)) {
    const byId = new Map<string, number>();
    for (const [i, id] of elementIds.entries()) byId.set(id as string, i);
    const claimed = new Set(sentIds.map((id) => byId.get(String(id))).filter((i) => i !== undefined));
    return sentIds.map((id, i) => {
      const at = byId.get(String(id));
      if (at !== undefined) return elements[at];
      return verbOf(op.id) === 'upsert' && samePositions && !claimed.has(i) ? elements[i] : MISSING;
    });
  }
  return samePositions ? [...elements] : sent.map(() => MISSING);
}

const MISSING = Symbol('missing');

/**
 * What the answer `result` of a bulk `op` says of each item of `sent`, in order.
 * An answer without per-item results confirms every item when it says so outright
 * (a success flag) or when the operation answers no data (void, none): a 2xx for
 * a request applied whole.
 */
export function itemResults(op: Operation, sent: readonly unknown[], result: CallResult): ItemResult[] {
  const { data } = result;
  if (Array.isArray(data)) {
    return matched(op, sent, data).map((element, i) => (element === MISSING ? { kind: 'missing' } : judgeElement(op, sent[i], element)));
  }
  // The profile says the service answers item by item: an answer without its items confirms none of them.
  if (result.perItem) return sent.map(() => ({ kind: 'missing' }));
  if (verbOf(op.id) === 'remove') {
    // Each id is deleted or decommissioned, or neither: confirmed where the message names which, else read back.
    const named = new Set([...outcomesNamed(result.message).keys()].map(String));
    return sent.map((value) => (named.has(String(itemId(value))) ? { kind: 'confirmed' } : { kind: 'missing' }));
  }
  const appliedWhole = result.success === true || op.response === 'void' || op.response === 'none';
  return sent.map(() => (appliedWhole ? { kind: 'confirmed' } : { kind: 'missing' }));
}
