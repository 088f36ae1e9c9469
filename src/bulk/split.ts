import { type ApiError, PlaError, UnreadableAnswerError } from '../errors.js';
import { confirmItems } from '../confirm/confirm-items.js';
import { itemId } from '../confirm/read-back.js';
import { alreadyDone, type DoneRules, mayBeAlreadyDone } from '../confirm/already-done.js';
import { isObject } from '../client/objects.js';
import { serviceMessage } from '../client/error-mapping.js';
import type { CallResult, PlaClient } from '../client/types.js';
import type { SourceItem } from '../io/input/types.js';
import type { Reject } from './rejects.js';
import { operation, type OperationId } from '../contract/operations.js';

import { isRecordRejection } from './record-rejection.js';

export { isRecordRejection };

/**
 * Whole numbers standing alone (ids, counts, indexes) as `#`, so that messages
 * differing only in them group; numbers inside a value (a date, a time, a
 * decimal, a code like `LC-1001`) stay as they are: a summary shows values as
 * they are, never `#-#-#T#:#:#.#Z`.
 */
export function withoutIds(text: string): string {
  return text.replace(/(?<![\w.:-])\d+(?![\w.:-])/g, '#');
}

/**
 * Why the service refused an item, the same words for every item refused for the
 * same cause, so a summary can group them: its status and its own message, ids
 * taken out (`409 already decommissioned`, `404 determination # not found`).
 */
export function reasonOf(error: ApiError): string {
  const said = serviceMessage(error.problem)?.replace(/\s+/g, ' ');
  if (!said) return `${error.status} ${error.message.replace(/^\d+\s*/, '').replace(/\s*\([A-Z]+ \/.*$/, '')}`;
  const general = said.replace(/:\s*[\w-]+(?:\s*,\s*[\w-]+)*$/, (list) => (/\d/.test(list) ? '' : list));
  return `${error.status} ${withoutIds(general)}`;
}

/**
 * Whether the service answered a request again under its Idempotency-Key rather
 * than carrying it out (`Idempotent-Replayed: true`, as pla server and Stripe-style
 * services say): done by an earlier attempt.
 */
export function isReplayed(result: CallResult): boolean {
  const said = result.headers['idempotent-replayed'];
  return (Array.isArray(said) ? said[0] : said)?.trim().toLowerCase() === 'true';
}

/** One request the service accepted: the items it carried and what it answered. */
export interface Accepted {
  items: SourceItem[];
  result: CallResult;
  /**
   * Of each item, in order: what reading it back found, when that is what
   * confirmed it (its record now; none: gone). A remove says from it which ids
   * were deleted and which decommissioned, without reading them again.
   */
  readBack?: Array<{ record?: Record<string, unknown> } | undefined>;
  /** The service refused them, and read back they already were as asked (a rerun's "already cancelled"). */
  already?: true;
}

export interface SendResult {
  accepted: SourceItem[];
  /** The accepted requests in input order (a split batch has several). */
  answers: Accepted[];
  rejected: Array<Reject & { line: number }>;
  /** Items of requests that failed after the service may have carried them out (not repeated), with why. */
  unknown: Array<Reject & { line: number }>;
}

/** An item as the start of its reject: its value, line and (of a sheet row) its cells as read. */
export function rejectOf(item: SourceItem): { value: unknown; line: number; row?: string[] } {
  return { value: item.value, line: item.line, ...(item.row ? { row: item.row } : {}) };
}

/** Names the `Idempotency-Key` of one request: `part` is the batch, then which half of which half once split. */
export interface RequestKeys {
  part: string;
  keyOf: (part: string, values: unknown[]) => string;
}

/**
 * Errors a batch's first request threw (before any part of the batch was split off
 * and sent): nothing of the batch was carried out, or repeating it is harmless — a
 * create that may have been carried out is answered as of unknown outcome instead.
 */
const firstRequestFailures = new WeakSet<object>();

/** Whether a batch that stopped on `error` can be sent again as it is: its first request failed, and nothing else of it was sent. */
export function safeToSendAgain(error: unknown): boolean {
  return typeof error === 'object' && error !== null && firstRequestFailures.has(error) && !(error instanceof PlaError && error.outcomeUnknown === true);
}

/** Told how many items of a batch have settled (accepted, refused, of unknown outcome) as parts of it do: the progress bar. */
export type OnSettled = (items: number) => void;

/** A refusal of a whole request of several items, not naming which: why, in the words that group (`reasonOf`). */
interface Refusal {
  error: ApiError;
  reason: string;
  /** Its items were read back already (already-done.ts): its parts are not read again. */
  readBack: boolean;
}

/**
 * How a batch's refusals are read: `readBack`, its items were read back after a
 * refusal already (already-done.ts), so they are not read again; `goneIsDone`, a
 * delete's 404 read back as not found is done (`--ignore-not-found`, or a batch an
 * earlier attempt of the run left in flight).
 */
export interface SendRules extends DoneRules {
  readBack?: boolean;
}

/** One request's outcome: settled (a result per item), or refused whole. */
type Attempt = { result: SendResult } | { refusal: Refusal };

function settled(result: SendResult, onSettled: OnSettled | undefined): SendResult {
  onSettled?.(result.accepted.length + result.rejected.length + result.unknown.length);
  return result;
}

/**
 * Sends items through a bulk operation. Bulk requests are all-or-nothing, so when
 * the service refuses a batch it is split in halves and each half sent again:
 * the items that still fail alone are the bad ones, found in about
 * (bad items × log2 batch size) requests. When the halves and then the quarters
 * of a refused part are all refused for the same reason as it, the rest of the
 * part is refused with that reason (a sheet refused for one reason costs 7
 * requests a batch, not 2 a row): its items' errors say they were not tried alone. Any other error (auth, network,
 * 5xx after the client's retries) is not about the items and is thrown.
 */
export async function sendWithSplit(
  client: PlaClient,
  operationId: OperationId,
  items: SourceItem[],
  key?: RequestKeys,
  onSettled?: OnSettled,
  rules: SendRules = {},
): Promise<SendResult> {
  const attempt = await sendWhole(client, operationId, items, key, rules);
  if ('result' in attempt) return settled(attempt.result, onSettled);
  return refine(client, operationId, items, attempt.refusal, key, onSettled, rules);
}

/** Sends `items` in one request: what the service confirmed item by item, or its refusal of them all (read by `rules`). */
async function sendWhole(client: PlaClient, operationId: OperationId, items: SourceItem[], key: RequestKeys | undefined, rules: SendRules): Promise<Attempt> {
  let readBack = rules.readBack === true;
  const body = items.map((item) => item.value);
  const asFailed = (error: unknown) => items.map((item) => ({ ...rejectOf(item), error: (error as Error).message }));
  try {
    const result = await client.call(operationId, { body, ...(key ? { idempotencyKey: key.keyOf(key.part, body) } : {}) });
    return { result: await confirmed(client, operationId, items, result) };
  } catch (error) {
    // An answer pla cannot read (an HTML page answered 200) confirms nothing: each item is read back.
    if (error instanceof UnreadableAnswerError) return { result: await confirmed(client, operationId, items, error) };
    if (error instanceof PlaError && error.outcomeUnknown) return { result: { accepted: [], answers: [], rejected: [], unknown: asFailed(error) } };
    if (!isRecordRejection(error)) {
      // The whole batch's own request (not a half's): nothing else of the batch went out.
      if (key !== undefined && !key.part.includes('.') && typeof error === 'object' && error !== null) firstRequestFailures.add(error);
      throw error;
    }
    // A refusal naming the items it refused (a partial success): those fail, the others are read back, never sent again.
    const named = namedRefusals(error as ApiError, items);
    if (named) return { result: await confirmed(client, operationId, items, named) };
    // A rerun's cancel of tasks already cancelled (and the like): those read back as done, the rest are sent again.
    if (!readBack && mayBeAlreadyDone(operationId, error, rules)) {
      const done = await withAlreadyDone(client, operationId, items, error, key, rules);
      if (done) return { result: done };
      readBack = true;
    }
    const reason = reasonOf(error as ApiError);
    if (items.length > 1) return { refusal: { error: error as ApiError, reason, readBack } };
    return { result: { accepted: [], answers: [], rejected: asFailed(error).map((reject) => ({ ...reject, reason })), unknown: [] } };
  }
}

/**
 * Levels of halving whose parts must all be refused for one reason before the rest
 * is refused with it: halves, then quarters. One level alone would refuse a batch
 * holding two bad rows, one in each half; with two, a part is refused untried only
 * when each of its quarters held a bad row. A sheet refused for one reason then
 * costs 1 + 2 + 4 requests a batch.
 */
const LEVELS_AGREEING = 2;

/** Finds the bad items of a part refused whole (see `sendWithSplit`); `agreeing`: levels above whose parts all failed for its reason. */
async function refine(
  client: PlaClient,
  operationId: OperationId,
  items: SourceItem[],
  refusal: Refusal,
  key: RequestKeys | undefined,
  onSettled: OnSettled | undefined,
  rules: SendRules,
  agreeing = 0,
): Promise<SendResult> {
  const middle = Math.ceil(items.length / 2);
  const parts = [items.slice(0, middle), items.slice(middle)];
  const half = (n: number) => (key ? { ...key, part: `${key.part}.${n}` } : undefined);
  const attempts: Attempt[] = [];
  const partRules = { ...rules, readBack: refusal.readBack };
  for (const [n, part] of parts.entries()) attempts.push(await sendWhole(client, operationId, part, half(n), partRules));
  const agree = attempts.every((attempt) => 'refusal' in attempt && attempt.refusal.reason === refusal.reason);
  if (agree && agreeing + 1 >= LEVELS_AGREEING) {
    const error = `${refusal.error.message} (refused with its batch: every part of it tried was refused for this reason, so its rows were not tried one by one)`;
    const rejected = items.map((item) => ({ ...rejectOf(item), error, reason: refusal.reason }));
    return settled({ accepted: [], answers: [], rejected, unknown: [] }, onSettled);
  }
  const results: SendResult[] = [];
  for (const [n, attempt] of attempts.entries())
    results.push(
      'result' in attempt
        ? settled(attempt.result, onSettled)
        : await refine(client, operationId, parts[n] as SourceItem[], attempt.refusal, half(n), onSettled, rules, agree ? agreeing + 1 : 0),
    );
  return {
    accepted: results.flatMap((result) => result.accepted),
    answers: results.flatMap((result) => result.answers),
    rejected: results.flatMap((result) => result.rejected),
    unknown: results.flatMap((result) => result.unknown),
  };
}

/**
 * After the service refused a batch of a state change (cancel, decommission,
 * remove), or of a delete whose `rules` let gone count: each item is read back;
 * those already as asked are done ("already cancelled", "already gone",
 * src/confirm/already-done.ts), the others are sent again, split as
 * any refused batch when refused again. Undefined when none was: the batch splits,
 * its halves not read again (a refusal for another cause costs its reads once).
 */
async function withAlreadyDone(
  client: PlaClient,
  operationId: OperationId,
  items: SourceItem[],
  error: unknown,
  key: RequestKeys | undefined,
  rules: DoneRules,
): Promise<SendResult | undefined> {
  const done: Array<{ item: SourceItem; record?: Record<string, unknown> }> = [];
  const rest: SourceItem[] = [];
  let gone = 0;
  for (const item of items) {
    const already = await alreadyDone(client, operationId, item.value, error, undefined, rules);
    if (already && !already.record) gone += 1;
    if (already) done.push({ item, ...(already.record ? { record: already.record } : {}) });
    else rest.push(item);
  }
  if (done.length === 0) return undefined;
  const sent: SendResult =
    rest.length === 0
      ? { accepted: [], answers: [], rejected: [], unknown: [] }
      : await sendWithSplit(client, operationId, rest, key ? { ...key, part: `${key.part}.rest` } : undefined, undefined, { ...rules, readBack: true });
  const state = gone === done.length ? 'gone' : String(operation(operationId).done ?? 'done');
  const answer: Accepted = {
    items: done.map(({ item }) => item),
    result: { status: (error as ApiError).status, data: null, message: `already ${state}`, headers: {} },
    readBack: done.map(({ record }) => ({ record })),
    already: true,
  };
  return { ...sent, accepted: [...answer.items, ...sent.accepted], answers: [answer, ...sent.answers] };
}

/** Where a refusal lists what it refused item by item. */
const REFUSAL_LISTS = ['errors', 'failed', 'failures', 'data', 'results'] as const;

/**
 * A refusal of several items that names, by id, the items it refused
 * (`{"errors": [{"id": 3, "message": "in use"}]}`), as an answer where each of
 * them failed and the others are left out: a service that refuses some items of
 * a request by name may have carried out the rest, which are read back rather
 * than sent again. Undefined when it names none of the items sent.
 */
function namedRefusals(error: ApiError, items: SourceItem[]): CallResult | undefined {
  const { problem } = error;
  if (items.length < 2 || !isObject(problem)) return undefined;
  const sent = new Set(
    items
      .map((item) => itemId(item.value))
      .filter((id) => id !== undefined)
      .map(String),
  );
  for (const key of REFUSAL_LISTS) {
    const list = problem[key];
    if (!Array.isArray(list)) continue;
    const refused = list.filter((entry): entry is Record<string, unknown> => isObject(entry) && sent.has(String(itemId(entry) ?? '')));
    if (refused.length > 0) return { status: error.status, data: refused.map((entry) => ({ ...entry, success: false })), headers: {} };
  }
  return undefined;
}

/**
 * What the service confirmed of one request, item by item (src/confirm): the
 * confirmed items are accepted, with what was answered for each where the
 * operation answers records; refused items are rejects with their reason; the
 * rest are of unknown outcome.
 */
async function confirmed(client: PlaClient, operationId: OperationId, items: SourceItem[], answer: CallResult | UnreadableAnswerError): Promise<SendResult> {
  const sorted = await confirmItems(client, operationId, items, (item) => item.value, answer);
  const accepted = sorted.confirmed.map(({ item }) => item);
  const result: CallResult = answer instanceof UnreadableAnswerError ? { status: answer.status, data: undefined, headers: {} } : answer;
  // Only an operation that answers records prints them; a per-item list of `{"id", "deleted": true}` is not one.
  const answersRecords = operation(operationId).response === 'list' && sorted.confirmed.every(({ answer: value }) => value !== undefined);
  const perItem: CallResult = {
    ...result,
    data: answersRecords ? sorted.confirmed.map(({ answer: value }) => value) : Array.isArray(result.data) ? null : result.data,
  };
  const withReason = ({ item, reason }: { item: SourceItem; reason: string }) => ({
    ...rejectOf(item),
    error: reason,
    reason: reason.replace(/\d+/g, '#'),
  });
  return {
    accepted,
    answers:
      accepted.length > 0
        ? [
            {
              items: accepted,
              result: perItem,
              ...(sorted.confirmed.some(({ readBack }) => readBack) ? { readBack: sorted.confirmed.map(({ readBack }) => readBack) } : {}),
            },
          ]
        : [],
    rejected: sorted.refused.map(withReason),
    unknown: sorted.unknown.map(withReason),
  };
}

/**
 * Each accepted item with what the service answered for it: the answer's list
 * matched to the items sent when it holds one record per item, else nothing.
 */
export function answerPerItem(answers: readonly Accepted[]): Array<{ item: SourceItem; result: unknown }> {
  return answers.flatMap(({ items, result }) => {
    const data = Array.isArray(result.data) && result.data.length === items.length ? (result.data as unknown[]) : undefined;
    return items.map((item, i) => ({ item, result: data?.[i] }));
  });
}

/**
 * Takes out of `answers` the creates answered with an id the run has already seen
 * answered for another record (`created` holds them, and takes the new ones): two
 * records "created" under one id means one overwrote the other, so neither
 * answer confirms a record of its own. Those items are of unknown outcome.
 */
export function withoutRepeatedCreates(
  answers: readonly Accepted[],
  created: Set<string>,
  isCreate: (item: SourceItem, result: unknown) => boolean,
): { answers: Accepted[]; unknown: Array<Reject & { line: number }> } {
  const unknown: Array<Reject & { line: number }> = [];
  const kept = answers.map(({ items, result }) => {
    const data = Array.isArray(result.data) && result.data.length === items.length ? (result.data as unknown[]) : undefined;
    if (!data) return { items, result };
    const keep = items.map((item, i) => {
      const id = isCreate(item, data[i]) ? itemId(data[i]) : undefined;
      if (id === undefined) return true;
      if (!created.has(String(id))) {
        created.add(String(id));
        return true;
      }
      unknown.push({
        value: item.value,
        line: item.line,
        error: `the service answered id ${String(id)}, which it answered for another record of this run: one may have overwritten the other`,
      });
      return false;
    });
    return { items: items.filter((_, i) => keep[i]), result: { ...result, data: data.filter((_, i) => keep[i]) } };
  });
  return { answers: kept.filter((answer) => answer.items.length > 0), unknown };
}
