/**
 * What a 2xx answer means for the operation that was called: its data, a failure
 * the service states inside the 2xx, a record that is not there (a soft 404), or
 * an answer pla cannot read. Only an answer of the shape the operation gives is
 * data; anything else is an error that says what came, never an empty success.
 */
import { toRecordId } from '../contract/ids.js';
import type { Operation } from '../contract/operations.js';
import { NOUNS } from '../contract/wording.js';
import { NotFoundError, UnreadableAnswerError, type ApiError } from '../errors.js';
import type { WireProfile } from '../contract/wire-profile.js';
import { type Unwrapped, unwrapByProfile, unwrapEnvelope } from './envelope.js';
import { pageFailure, type StatedFailure } from './failure-signals.js';
import { isObject } from './objects.js';
import { MAX_ANSWER_DEPTH, nestedDeeperThan, TooDeepAnswer } from './nesting.js';

/** What a 2xx answer was, in a few words: `text/html ("Sign in")`, `JSON null`, `a JSON array`. */
export function describeAnswer(body: unknown, contentType: string | undefined): string {
  if (body === undefined) return 'no body';
  if (typeof body === 'string') {
    const type = contentType?.split(';')[0]?.trim() || 'text';
    // Labelled JSON and not JSON (the body is read leniently, so it came as text).
    if (type.includes('json')) return `invalid JSON (${type}: "${body.replace(/\s+/g, ' ').trim().slice(0, 60)}")`;
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
    const words = (title ?? body.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim().slice(0, 80);
    return words ? `${type} ("${words}")` : type;
  }
  if (body === null) return 'JSON null';
  if (Array.isArray(body)) return `a JSON array of ${body.length}`;
  if (isObject(body)) return `an object with ${Object.keys(body).slice(0, 6).join(', ') || 'no fields'}`;
  return `JSON ${typeof body} ${String(body)}`.slice(0, 80);
}

/** Whether `op` reads one record by id (its answer with no record is a soft 404). */
export function readsOneRecord(op: Operation): boolean {
  return op.method === 'GET' && op.response === 'single' && op.pathParams.length > 0;
}

/** Whether `op` changes something (its answer must confirm it). */
function writes(op: Operation): boolean {
  return op.done !== undefined;
}

/** Whether a success of `op` carries data (a void answer has none to miss). */
function dataDue(op: Operation): boolean {
  return op.response !== 'void' && op.response !== 'none';
}

/** Whether `data` is what a success of `op` carries (the envelope's explicit success stands in for a write's data). */
function fits(op: Operation, data: unknown, success: boolean): boolean {
  switch (op.response) {
    case 'single':
      return (isObject(data) && Object.keys(data).length > 0) || (writes(op) && success);
    case 'list':
      return Array.isArray(data) || (writes(op) && success);
    case 'array':
      return Array.isArray(data) || (writes(op) && (success || isObject(data)));
    case 'count-map':
      // `{"count": 3}`, counts by type, or a bare count.
      return isObject(data) || (typeof data === 'number' && Number.isInteger(data));
    case 'schema':
      return data !== undefined && data !== null;
    case 'void':
    case 'none':
    case 'page':
    case 'notification-page':
      // Any JSON: pages are checked by their own reader (page-shapes.ts).
      return true;
  }
}

export interface AnswerContext {
  op: Operation;
  status: number;
  contentType: string | undefined;
  /** `METHOD path` for messages. */
  where: string;
  params?: Record<string, string | number | bigint>;
  /** Turns a failure stated inside a 2xx into the error its status calls for (error-mapping). */
  failed: (failure: StatedFailure, body: unknown) => ApiError;
  /** The environment's stored wire profile: answers are read by it (src/client/envelope.ts), else by the general rules. */
  wire?: WireProfile;
}

/**
 * Reads a 2xx answer for `op`: its data (envelope unwrapped), or throws the error
 * it amounts to: the failure it states, `NotFoundError` for a read by id answered
 * with no record, `UnreadableAnswerError` for anything that is not the
 * operation's answer (HTML, text, another shape).
 */
export function readAnswer(body: unknown, context: AnswerContext): Unwrapped {
  const { op, status, where } = context;
  const unreadable = (what: string, problem: unknown = body) =>
    new UnreadableAnswerError(`the service answered ${what} (status ${status}), not ${op.summary.toLowerCase()}'s answer (${where})`, status, what, problem);
  // Valid JSON, but deeper than anything after this could walk: the service's fault, never a crash of pla's.
  if (body instanceof TooDeepAnswer || nestedDeeperThan(body, MAX_ANSWER_DEPTH))
    throw unreadable(`JSON nested more than ${MAX_ANSWER_DEPTH.toLocaleString('en-US')} levels deep, deeper than pla reads`, new TooDeepAnswer());
  // Text where JSON is expected: a gateway's sign-in page, a proxy's notice. Never a confirmation.
  if (typeof body === 'string') throw unreadable(describeAnswer(body, context.contentType));
  const inPage = op.paging !== undefined;
  const enveloped = op.response === 'single' || op.response === 'list' || op.response === 'void';
  const unwrapped = context.wire ? unwrapByProfile(body, context.wire, { inPage, enveloped }) : unwrapEnvelope(body, { inPage });
  if (unwrapped.failure) throw context.failed(unwrapped.failure, body);
  // A page needs no envelope to say it failed: its own fields beside its records and paging fields may.
  const pageFailed = op.response === 'page' || op.response === 'notification-page' ? pageFailure(unwrapped.data) : undefined;
  if (pageFailed) throw context.failed(pageFailed, body);
  const softNotFound = readsOneRecord(op) && context.wire?.softNotFound === true;
  if (unwrapped.keyMissing !== undefined && dataDue(op) && !softNotFound)
    // A read is answered by it or is an error; a write so answered is read back (src/confirm) as any unreadable answer.
    throw unreadable(`${describeAnswer(body, context.contentType)} without "${unwrapped.keyMissing}", where the wire profile says the data is`);
  if (softNotFound && isObject(unwrapped.data) && Object.keys(unwrapped.data).length === 0) unwrapped.data = undefined;
  if (readsOneRecord(op) && (unwrapped.data === null || unwrapped.data === undefined)) {
    const id = context.params?.id;
    throw new NotFoundError(`${NOUNS[op.resource][0]} ${String(id)} not found: the service answered ${status} with no record (${where})`, 404, body);
  }
  if (!fits(op, unwrapped.data, unwrapped.success === true)) throw unreadable(describeAnswer(unwrapped.data, context.contentType));
  const other = otherRecord(op, unwrapped.data, context.params);
  if (other !== undefined) throw unreadable(`record ${String(other)} for id ${String(context.params?.id)}`);
  return unwrapped;
}

/**
 * The id of the record a by-id call was answered with, when it is another record's:
 * a gateway cache or a service bug must not make `get 5` print record 999, nor an
 * update of 5 report 999's fields as 5's, nor a cancel of 5 answered with task 6
 * count as 5 cancelled (any write, whatever data it is due: the answer is then
 * read back). Ids compare as ids ("7" and 7 agree, exact past 2^53); an answer
 * naming no id is left to the other rules.
 */
function otherRecord(op: Operation, data: unknown, params: AnswerContext['params']): bigint | number | undefined {
  if ((op.response !== 'single' && !writes(op)) || !op.pathParams.some((param) => param.name === 'id') || !isObject(data) || !('id' in data)) return undefined;
  const asked = params?.id === undefined ? undefined : toRecordId(params.id);
  const answered = toRecordId(data.id);
  if (asked === undefined || answered === undefined) return undefined;
  return BigInt(asked) === BigInt(answered) ? undefined : answered;
}
