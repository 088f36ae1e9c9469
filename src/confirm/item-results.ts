/**
 * Reading a write's answer item by item. A service that applies a bulk request
 * item by item says so per item (`[{"id": 10, "cancelled": false, "reason": …}]`,
 * a record with `"success": false`, a per-item status): those results decide each
 * item, whatever the request's status said. Items are matched to the answer by
 * id (never by position when ids are there to match); an item the answer does not
 * account for, or accounts for in words that do not confirm it, is `missing` (to
 * be read back). Only a positive answer confirms: for a write that answers no
 * data (delete, cancel, mark read) that is no body, an envelope saying success,
 * the item's id listed, its own `deleted: true`; a summary (`{"processed": 3}`),
 * a count that is not the count sent, another id, or a 202 confirm nothing.
 */
import type { CallResult } from '../client/types.js';
import { failureWords, flag, RESULT_FIELDS, statedFailure, statesSuccess } from '../client/failure-signals.js';
import { isObject } from '../client/objects.js';
import { type Operation, verbOf } from '../contract/operations.js';
import { asRecord, changedFields } from '../plan/record-diff.js';
import { itemId } from './read-back.js';
import { countBefore, idsAfter, outcomesNamed } from './remove-message.js';

/** What the answer says of one item. */
export type ItemResult = { kind: 'confirmed'; answer?: unknown } | { kind: 'failed'; reason: string } | { kind: 'missing' };

const MISSING: ItemResult = { kind: 'missing' };

/** The id an element of the answer names: a bare id, or an object's `id`. */
function elementId(element: unknown): string | undefined {
  const id = itemId(element);
  return id === undefined ? undefined : String(id);
}

/** Whether `op` answers the records it changed (update, upsert, create, decommission) rather than no data (delete, cancel, mark read). */
function answersRecords(op: Operation): boolean {
  return op.response !== 'void' && op.response !== 'none';
}

/** Verbs whose outcome is a state of the record: confirmed only by that state (or the verb's own flag), else read back. */
const STATE_OF: Readonly<Record<string, { status: string; flag: string }>> = {
  cancel: { status: 'CANCELLED', flag: 'cancelled' },
  decommission: { status: 'DECOMMISSIONED', flag: 'decommissioned' },
};

/**
 * Whether a record answered for a create (an item naming no id) is the one sent:
 * it names an id, and holds every field as it was sent. A record of the
 * resources pla reads back; the notification side answers projections.
 */
function createdAsSent(op: Operation, sent: Record<string, unknown> | undefined, record: Record<string, unknown>): boolean {
  if (op.read === undefined || sent === undefined || itemId(sent) !== undefined) return true;
  return itemId(record) !== undefined && changedFields(record, sent).length === 0;
}

/** What one element of the answer (or a single write's whole answer) says of the item `sent`. */
export function judgeElement(op: Operation, sent: unknown, element: unknown): ItemResult {
  const done = op.done ?? 'done';
  const verb = verbOf(op.id) ?? '';
  const state = STATE_OF[verb];
  if (flag(element) === true) return { kind: 'confirmed' };
  if (flag(element) === false) return { kind: 'failed', reason: `not ${done} (the service answered false)` };
  // A bare id: the item's own id listed confirms a change that leaves no state to show; a count, another id or text says nothing.
  if (!isObject(element))
    return !answersRecords(op) && !state && sent !== undefined && elementId(element) === elementId(sent) ? { kind: 'confirmed' } : MISSING;
  const sentRecord = asRecord(sent);
  const record = Object.keys(element).some((field) => !RESULT_FIELDS.has(field) && field !== 'id' && field !== done && field !== 'data' && field !== 'record');
  const failure = statedFailure(element, { ...(sentRecord ? { sent: sentRecord } : {}), record, item: true });
  if (failure) return { kind: 'failed', reason: failure.message };
  // `cancelled: false`, `deleted: false`: the operation's own word for it.
  if (flag(element[done]) === false) return { kind: 'failed', reason: failureWords(element) ?? `not ${done}` };
  const wrapped = isObject(element.data) ? element.data : isObject(element.record) ? element.record : undefined;
  const answer = wrapped ?? element;
  if (state) {
    const status = typeof answer.status === 'string' ? answer.status.toUpperCase() : undefined;
    if (flag(element[state.flag]) === true || status === state.status) return { kind: 'confirmed', answer };
    if (!wrapped && statesSuccess(element)) return { kind: 'confirmed' };
    if (status !== undefined) return { kind: 'failed', reason: failureWords(element) ?? `the ${op.resource === 'tasks' ? 'task' : 'record'} is ${status}` };
    // The answer does not show the state: reading it back does.
    return MISSING;
  }
  if (answersRecords(op)) return createdAsSent(op, sentRecord, answer) ? { kind: 'confirmed', answer } : MISSING;
  if (flag(element[done]) === true || statesSuccess(element)) return { kind: 'confirmed' };
  // A record made through an operation answering no data (an upload) is confirmed by the new record's id.
  if (sentRecord && itemId(sentRecord) === undefined) return elementId(element) !== undefined ? { kind: 'confirmed', answer } : MISSING;
  // `{"id": 7}` or `{"id": 7, "message": …}`: the item's id listed as done.
  const onlyId = Object.keys(element).every((field) => field === 'id' || RESULT_FIELDS.has(field));
  return onlyId && sent !== undefined && elementId(element) === elementId(sent) ? { kind: 'confirmed' } : MISSING;
}

/**
 * The answer's elements matched to the items sent. Where the elements carry ids,
 * by id: an item naming an id takes the element of that id; an item naming none
 * (a create), or whose id the service did not know (an upsert that created), takes
 * an element of an id no item named, holding the fields it sent, each element
 * once. An id answered twice confirms neither. Elements without ids (`[true,
 * false]`) are matched by position, only when there is one per item.
 */
function matched(op: Operation, sent: readonly unknown[], elements: readonly unknown[]): unknown[] {
  const elementIds = elements.map(elementId);
  if (elements.length === 0 || elementIds.some((id) => id === undefined)) return elements.length === sent.length ? [...elements] : sent.map(() => MISSING);
  const sentIds = sent.map((value) => elementId(value));
  const counts = new Map<string, number>();
  for (const id of elementIds) counts.set(id as string, (counts.get(id as string) ?? 0) + 1);
  const named = new Set(sentIds.filter((id): id is string => id !== undefined));
  const byId = new Map(elementIds.map((id, i) => [id as string, i]));
  const claimed = new Set<number>();
  const result: unknown[] = sent.map((_, i) => {
    const id = sentIds[i];
    const at = id === undefined ? undefined : byId.get(id);
    if (at === undefined || counts.get(id as string) !== 1) return MISSING;
    claimed.add(at);
    return elements[at];
  });
  if (!answersRecords(op)) return result;
  // Records the service made: matched by the fields sent, to items it found no id of theirs for.
  for (const [i, value] of sent.entries()) {
    const sentRecord = asRecord(value);
    if (result[i] !== MISSING || !sentRecord || (sentIds[i] !== undefined && byId.has(sentIds[i] as string))) continue;
    const fields = Object.fromEntries(Object.entries(sentRecord).filter(([field]) => field !== 'id'));
    const at = elements.findIndex((element, j) => {
      const id = elementIds[j] as string;
      const record = asRecord(element);
      return !claimed.has(j) && !named.has(id) && counts.get(id) === 1 && record !== undefined && changedFields(record, fields).length === 0;
    });
    if (at === -1) continue;
    claimed.add(at);
    result[i] = elements[at];
  }
  return result;
}

/**
 * What a non-list answer to a write that answers no data says of every item: no
 * body, or an envelope saying success with nothing else, is done; the count of
 * the items sent under the operation's word (`{"deleted": 3}`) is done; a false
 * is not; a per-item result of a single item decides it; anything else (a
 * summary, another count, text, an envelope saying nothing) is to be read back.
 */
function voidVerdict(op: Operation, sent: readonly unknown[], result: CallResult): ItemResult {
  const { data } = result;
  if (data === undefined || data === null) return result.empty || result.success ? { kind: 'confirmed' } : MISSING;
  if (flag(data) !== undefined) return judgeElement(op, sent[0], data);
  if (!isObject(data)) return typeof data === 'string' && result.success ? { kind: 'confirmed' } : MISSING;
  const count = data[op.done ?? 'done'] ?? data.count;
  if (typeof count === 'number' || typeof count === 'bigint') return Number(count) === sent.length ? { kind: 'confirmed' } : MISSING;
  if (sent.length === 1) return judgeElement(op, sent[0], data);
  return judgeElement(op, undefined, data).kind === 'failed' ? judgeElement(op, undefined, data) : MISSING;
}

/**
 * What the message of a bulk write by ids that names ids or a count under the
 * operation's word leaves of a success: "Deleted ids: 1, 2" confirms 1 and 2 only, "2 records deleted" of
 * three sent confirms none (which two is not said). The rest is read back.
 */
function confirmedByMessage(op: Operation, sent: readonly unknown[], value: unknown, message: string | undefined): ItemResult {
  const word = op.done;
  // A bulk write by ids only: a single write's message names its record ("Determination 5 deleted").
  if (!message || word === undefined || op.body?.kind !== 'ids') return { kind: 'confirmed' };
  const named = idsAfter(word, message).map(String);
  if (named.length > 0) return named.includes(String(itemId(value))) ? { kind: 'confirmed' } : MISSING;
  const count = countBefore(word, message);
  return count === undefined || count === sent.length ? { kind: 'confirmed' } : MISSING;
}

/**
 * What the answer `result` of `op` says of each item of `sent`, in order. A 202
 * (accepted, not yet done) confirms nothing: what it would confirm is read back.
 */
export function itemResults(op: Operation, sent: readonly unknown[], result: CallResult): ItemResult[] {
  const { data } = result;
  let results: ItemResult[];
  if (Array.isArray(data)) {
    results = matched(op, sent, data).map((element, i) => (element === MISSING ? MISSING : judgeElement(op, sent[i], element)));
  } else if (result.perItem) {
    // The profile says the service answers item by item: an answer without its items confirms none of them.
    results = sent.map(() => MISSING);
  } else if (verbOf(op.id) === 'remove') {
    // Each id is deleted or decommissioned, or neither: confirmed where the message names which, else read back.
    const named = new Set([...outcomesNamed(result.message).keys()].map(String));
    results = sent.map((value) => (named.has(String(itemId(value))) ? { kind: 'confirmed' } : MISSING));
  } else if (!answersRecords(op)) {
    const verdict = voidVerdict(op, sent, result);
    results = sent.map((value) => (verdict.kind === 'confirmed' ? confirmedByMessage(op, sent, value, result.message) : verdict));
  } else {
    // A records answer that is no list: an envelope saying success, without the records, confirms what was sent.
    results = sent.map(() => (result.success === true ? { kind: 'confirmed' } : MISSING));
  }
  return result.status === 202 ? results.map((r) => (r.kind === 'confirmed' ? MISSING : r)) : results;
}

/** What the answer `result` of a single write `op` of `sent` says of it. */
export function singleResult(op: Operation, sent: unknown, result: CallResult): ItemResult {
  if (!answersRecords(op)) {
    const said = itemResults(op, [sent], result)[0] as ItemResult;
    // A remove's command reads back every id its answer does not name, and says of each deleted, decommissioned or not removed.
    return said.kind === 'missing' && verbOf(op.id) === 'remove' && result.status !== 202 ? { kind: 'confirmed' } : said;
  }
  const { data } = result;
  // A list answered for one record (the notification side answers what it made as a list) is left to the answer's own checks.
  const said: ItemResult =
    data === undefined || data === null
      ? result.success
        ? { kind: 'confirmed' }
        : MISSING
      : Array.isArray(data)
        ? { kind: 'confirmed' }
        : judgeElement(op, sent, data);
  return result.status === 202 && said.kind === 'confirmed' ? MISSING : said;
}
