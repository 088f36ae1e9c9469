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
import { failureWords, flag, RESULT_FIELDS, resultView, statedFailure, statesSuccess } from '../client/failure-signals.js';
import { fieldOf, isObject } from '../client/objects.js';
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
 * Whether a record answered for an item is the one sent, as sent: for a create (an
 * item naming no id) it names an id; for an update or upsert of an id it names that
 * id, or none; either way it holds every field sent with the value sent (fields the
 * service adds, such as `updatedAt`, are not compared). An answer showing an old
 * value confirms nothing: the record is read back. A record of the resources pla
 * reads back; the notification side answers projections.
 */
function answeredAsSent(op: Operation, sent: Record<string, unknown> | undefined, record: Record<string, unknown>): boolean {
  if (op.read === undefined || sent === undefined) return true;
  const sentId = elementId(sent);
  const answeredId = elementId(record);
  // An upsert of an id the service did not know may create the record under an id of its own (issue 17: counted
  // as a create with that id, which undo deletes); an update never does.
  const created = sentId !== undefined && mayCreate(op) && answeredId !== undefined && answeredId !== sentId;
  const sameRecord = sentId === undefined ? answeredId !== undefined : answeredId === undefined || answeredId === sentId || created;
  return sameRecord && changedFields(record, created ? withoutId(sent) : sent).length === 0;
}

/** Whether the operation may create a record for an item that names an id (an upsert). */
function mayCreate(op: Operation): boolean {
  return op.done === 'upserted';
}

function withoutId(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([field]) => field !== 'id'));
}

/** A field of an answer element whatever its case (`Cancelled`, `Data`), its result fields read by pla's names (`IsSuccess`). */
function said(element: Record<string, unknown>, name: string): unknown {
  return fieldOf(resultView(element), name);
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
  const own = (field: string) => {
    const lower = field.toLowerCase();
    return RESULT_FIELDS.has(field) || lower === 'id' || lower === done || lower === 'data' || lower === 'record';
  };
  const record = Object.keys(resultView(element)).some((field) => !own(field));
  const failure = statedFailure(element, { ...(sentRecord ? { sent: sentRecord } : {}), record, item: true });
  if (failure) return { kind: 'failed', reason: failure.message };
  // `cancelled: false`, `deleted: false`: the operation's own word for it.
  if (flag(said(element, done)) === false) return { kind: 'failed', reason: failureWords(element) ?? `not ${done}` };
  const data = said(element, 'data');
  const inner = said(element, 'record');
  const wrapped = isObject(data) ? data : isObject(inner) ? inner : undefined;
  const answer = wrapped ?? element;
  if (state) {
    const held = fieldOf(answer, 'status');
    const status = typeof held === 'string' ? held.toUpperCase() : undefined;
    if (flag(said(element, state.flag)) === true || status === state.status) return { kind: 'confirmed', answer };
    // A per-item result's own status: a 2xx, a status line `HTTP/1.1 200 OK`, or OK.
    if (!wrapped && statesSuccess(element)) return { kind: 'confirmed' };
    if (status !== undefined) return { kind: 'failed', reason: failureWords(element) ?? `the ${op.resource === 'tasks' ? 'task' : 'record'} is ${status}` };
    // The answer does not show the state: reading it back does.
    return MISSING;
  }
  if (answersRecords(op)) return answeredAsSent(op, sentRecord, answer) ? { kind: 'confirmed', answer } : MISSING;
  if (flag(said(element, done)) === true || statesSuccess(element)) return { kind: 'confirmed' };
  // A record made through an operation answering no data (an upload) is confirmed by the new record's id.
  if (sentRecord && itemId(sentRecord) === undefined) return elementId(element) !== undefined ? { kind: 'confirmed', answer } : MISSING;
  // `{"id": 7}` or `{"id": 7, "message": …}`: the item's id listed as done.
  const onlyId = Object.keys(resultView(element)).every((field) => field.toLowerCase() === 'id' || RESULT_FIELDS.has(field));
  return onlyId && sent !== undefined && elementId(element) === elementId(sent) ? { kind: 'confirmed' } : MISSING;
}

/**
 * The answer's elements matched to the items sent. Where the elements carry ids,
 * by id: an item naming an id takes the element of exactly that id, or none (an
 * element of another id, however like the item, is another record); an item naming
 * none (a create) takes an element of an id no item named, holding the fields it
 * sent, each element once. An id answered twice confirms neither. Elements without ids (`[true,
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
  // Records the service made: matched by the fields sent, to items sent without an id (or upserted under one it did not answer).
  for (const [i, value] of sent.entries()) {
    const sentRecord = asRecord(value);
    // An item naming an id is matched by it alone, but for an upsert of an id the service did not answer (it may have created the record anew).
    if (result[i] !== MISSING || !sentRecord || (sentIds[i] !== undefined && (!mayCreate(op) || byId.has(sentIds[i] as string)))) continue;
    const at = elements.findIndex((element, j) => {
      const id = elementIds[j] as string;
      const record = asRecord(element);
      return !claimed.has(j) && !named.has(id) && counts.get(id) === 1 && record !== undefined && changedFields(record, withoutId(sentRecord)).length === 0;
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
  // A bulk write by ids that can be read back: only the ids its message names are confirmed, the rest read back.
  const namesOnly = readsBackBulk(op);
  // A bulk write by ids only: a single write's message names its record ("Determination 5 deleted").
  if (!message || word === undefined || op.body?.kind !== 'ids') return namesOnly ? MISSING : { kind: 'confirmed' };
  const named = idsAfter(word, message).map(String);
  if (named.length > 0) return named.includes(String(itemId(value))) ? { kind: 'confirmed' } : MISSING;
  const count = countBefore(word, message);
  return !namesOnly && (count === undefined || count === sent.length) ? { kind: 'confirmed' } : MISSING;
}

/**
 * Whether `op` is a bulk write whose records can be read back: an answer that does
 * not name its items (no body, `true`, `1`, a count, `{"success": true}`) confirms
 * none of them there; each is read back. The notification side has no read: there
 * such an answer still confirms the request as a whole.
 */
function readsBackBulk(op: Operation): boolean {
  return op.read !== undefined && (op.body?.kind === 'ids' || op.body?.kind === 'records');
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
    // A records answer that is no list: an envelope saying success, without the records, confirms what was sent (unless it can be read back).
    results = sent.map(() => (result.success === true && !readsBackBulk(op) ? { kind: 'confirmed' } : MISSING));
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
