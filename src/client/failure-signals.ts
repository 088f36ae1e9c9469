/**
 * The ways a service says "failed" or "done" inside a 2xx answer, one rule each,
 * read by the envelope (src/client/envelope.ts), by a page's own fields beside its
 * records (`pageFailure`, an envelope or none) and by the per-item results of a
 * bulk answer (src/confirm/item-results.ts): a false or "false" success flag (any
 * case), a status of ERROR/FAILED/FAIL or a 4xx/5xx (as a number, `statusCode`, or
 * Spring's HttpStatus name), a non-empty errors list or object, an error code, an
 * error message. Spring-style services use every one of them; a zero `error` or
 * `code` (`0`, `"0000"`) is a success.
 */
import { isObject } from './objects.js';

/** Fields an envelope or a per-item result carries beside its data: anything else makes a body a record. */
export const RESULT_FIELDS: ReadonlySet<string> = new Set([
  'success',
  'ok',
  'failed',
  'message',
  'msg',
  'reason',
  'code',
  'errorCode',
  'status',
  'statusCode',
  'errors',
  'error',
  'errorMessage',
  'timestamp',
  'time',
  'path',
  'traceId',
  'requestId',
  'detail',
  'details',
  '@odata.context',
]);

/**
 * Result fields as other stacks spell them, by their lower case: any letters' case
 * of pla's own names (ASP.NET's `Status`, `Errors`, `Message`), and the flags of
 * .NET result types (`IsSuccess`, `Succeeded`, `IsFailure`, `IsFailed`).
 */
const RESULT_NAMES: ReadonlyMap<string, string> = new Map([
  ...[...RESULT_FIELDS].map((name): [string, string] => [name.toLowerCase(), name]),
  ['issuccess', 'success'],
  ['succeeded', 'success'],
  ['issucceeded', 'success'],
  ['isfailure', 'failed'],
  ['isfailed', 'failed'],
  ['iserror', 'failed'],
]);

/**
 * `body` with its result fields under pla's names, whatever case or .NET word the
 * service spells them in (`{"IsSuccess": false, "Errors": […]}` reads as
 * `{"success": false, "errors": […]}`); other fields and every value unchanged. A
 * name pla's way wins over another spelling of it.
 */
export function resultView(body: Record<string, unknown>): Record<string, unknown> {
  const names = Object.keys(body);
  if (names.every((name) => RESULT_FIELDS.has(name) || !RESULT_NAMES.has(name.toLowerCase()))) return body;
  const view: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of names) {
    const own = RESULT_NAMES.get(name.toLowerCase());
    const key = own !== undefined && !(own !== name && Object.hasOwn(body, own)) ? own : name;
    if (!(key in view) || key === name) view[key] = body[name];
  }
  return view;
}
/** Status words that mean the call failed (compared upper-cased). */
const FAILED_STATUSES: ReadonlySet<string> = new Set(['ERROR', 'FAILED', 'FAIL', 'FAILURE', 'REJECTED']);

/** Status words that mean it succeeded. */
const SUCCEEDED_STATUSES: ReadonlySet<string> = new Set(['OK', 'SUCCESS', 'SUCCEEDED', 'DONE']);

/**
 * Spring's `HttpStatus` names of refusals and server errors, as a `status` field
 * spells them (`"status": "INTERNAL_SERVER_ERROR"`): the status they stand for.
 */
const HTTP_STATUS_NAMES: ReadonlyMap<string, number> = new Map(
  (
    [
      ['BAD_REQUEST', 400],
      ['UNAUTHORIZED', 401],
      ['FORBIDDEN', 403],
      ['NOT_FOUND', 404],
      ['METHOD_NOT_ALLOWED', 405],
      ['NOT_ACCEPTABLE', 406],
      ['REQUEST_TIMEOUT', 408],
      ['CONFLICT', 409],
      ['GONE', 410],
      ['PRECONDITION_FAILED', 412],
      ['PAYLOAD_TOO_LARGE', 413],
      ['UNSUPPORTED_MEDIA_TYPE', 415],
      ['UNPROCESSABLE_ENTITY', 422],
      ['LOCKED', 423],
      ['TOO_MANY_REQUESTS', 429],
      ['INTERNAL_SERVER_ERROR', 500],
      ['NOT_IMPLEMENTED', 501],
      ['BAD_GATEWAY', 502],
      ['SERVICE_UNAVAILABLE', 503],
      ['GATEWAY_TIMEOUT', 504],
      // Ardalis.Result's statuses (ASP.NET): `"status": "NotFound"`, `"Invalid"`, `"CriticalError"`.
      ['INVALID', 400],
      ['CRITICAL_ERROR', 500],
      ['UNAVAILABLE', 503],
    ] as const
  ).map(([name, status]): [string, number] => [name.replace(/_/g, ''), status]),
);

/** A flag as services write it: `false`, `"false"` (any case), `0` is false; `true`, `"true"` true; anything else says nothing. */
export function flag(value: unknown): boolean | undefined {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (value === true || text === 'true') return true;
  if (value === false || text === 'false' || value === 0) return false;
  return undefined;
}

/** Whether an `error` field says nothing went wrong: absent, empty, false, or a zero code (`"error": 0`). */
function noError(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '') return true;
  if (typeof value === 'number' || typeof value === 'string') return /^0+$/.test(String(value).trim());
  return isObject(value) && Object.keys(value).length === 0;
}

/**
 * A status as services write it, upper-cased: a number, digits, an HTTP status line
 * (`HTTP/1.1 423 Locked`, as WebDAV's 207 items carry), a reason phrase or a word.
 */
function statusText(status: unknown): string | undefined {
  const text = typeof status === 'number' ? String(status) : typeof status === 'string' ? status.trim().toUpperCase() : undefined;
  return text?.replace(/^HTTP\/\d(\.\d)?\s+/, '');
}

/** A `status` or `statusCode` that names a failure: 400–599 as a number, digits or a status line, ERROR/FAILED…, or an HttpStatus name of 4xx/5xx. */
function failedStatus(status: unknown): { status?: number } | undefined {
  const text = statusText(status);
  if (text === undefined) return undefined;
  const code = /^([45]\d\d)\b/.exec(text)?.[1];
  if (code !== undefined) return { status: Number(code) };
  const named = HTTP_STATUS_NAMES.get(text.replace(/^\d{3}\s+/, '').replace(/[\s_]+/g, ''));
  if (named !== undefined) return { status: named };
  return FAILED_STATUSES.has(text) ? {} : undefined;
}

/** A `status` that says the item succeeded: a 2xx as a number, digits or a status line, or OK/SUCCESS/DONE. */
export function succeededStatus(status: unknown): boolean {
  const text = statusText(status);
  return text !== undefined && (/^2\d\d\b/.test(text) || SUCCEEDED_STATUSES.has(text));
}

/** What a `code` field says: 0 and 2xx (or "OK", "SUCCESS") succeeded; anything else failed, with its HTTP status when it is one. */
function codeVerdict(code: unknown): { failed: boolean; status?: number } | undefined {
  if (code === undefined || code === null || code === '') return undefined;
  const text = String(code).trim();
  // `0`, `0000` (a zero code of fixed width), a 2xx.
  if (/^(0+|2\d\d)$/.test(text) || SUCCEEDED_STATUSES.has(text.toUpperCase())) return { failed: false };
  const n = Number(text);
  return Number.isInteger(n) && n >= 400 && n <= 599 ? { failed: true, status: n } : { failed: true };
}

/** The words a failure body gives: `message`, `msg`, `reason`, `error`, `errorMessage`, or the first of `errors`. */
export function failureWords(fields: Record<string, unknown>): string | undefined {
  const body = resultView(fields);
  for (const key of ['message', 'msg', 'reason', 'errorMessage', 'error', 'detail', 'title']) {
    const value = body[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (isObject(value) && typeof value.message === 'string') return value.message;
  }
  if (Array.isArray(body.errors)) {
    const first: unknown = body.errors[0];
    if (typeof first === 'string') return first;
    if (isObject(first)) return failureWords(first);
  }
  if (isObject(body.errors)) {
    const [field, said] = Object.entries(body.errors)[0] ?? [];
    const words = typeof said === 'string' ? said : Array.isArray(said) && typeof said[0] === 'string' ? said[0] : 'refused';
    if (field !== undefined) return `${field}: ${words}`;
  }
  return undefined;
}

/** A failure an answer (or one item of it) states, with its HTTP status when it names one. */
export interface StatedFailure {
  message: string;
  /** The status a `code` or numeric `status` names (`{"code": 409}` → 409). */
  status?: number;
}

/**
 * The failure `body` states, if it states one. `sent` is what the caller itself
 * sent for this item, when it was a record: a field it sent is the record's own,
 * not a verdict on the call. `record` when `body` is a record rather than an
 * envelope or a per-item result (it has fields of its own); `item` when it is one
 * element of a bulk answer.
 */
export function statedFailure(
  body: Record<string, unknown>,
  options: { sent?: Record<string, unknown>; record?: boolean; item?: boolean } = {},
): StatedFailure | undefined {
  const { sent } = options;
  body = resultView(body);
  const words = () => failureWords(body) ?? (typeof body.status === 'string' && body.status.trim() !== '' ? body.status.trim() : 'no message');
  const say = (status?: number) => ({ message: words(), ...(status !== undefined ? { status } : {}) });
  const own = (field: string) => sent !== undefined && field in sent && sent[field] === body[field];
  if (flag(body.success) === false || flag(body.ok) === false || flag(body.failed) === true) return say();
  // A record's `code` and `status` are its own fields (a determination's code, a FAILED task): verdicts only in an envelope or a result.
  if (!options.record) {
    const raw = body.code ?? body.errorCode;
    // An item's text code may be its own (a determination's `ATD-ACQ`): only a number is a verdict there.
    const code = own('code') || (options.item && typeof raw === 'string' && !/^-?\d+$/.test(raw.trim())) ? undefined : codeVerdict(raw);
    if (code?.failed) return say(code.status);
    for (const field of ['status', 'statusCode']) {
      const failed = own(field) ? undefined : failedStatus(body[field]);
      if (failed) return say(failed.status);
    }
  }
  // A list of errors, or an object of them by field (`{"errors": {"code": "taken"}}`).
  const { errors } = body;
  if (((Array.isArray(errors) && errors.length > 0) || (isObject(errors) && Object.keys(errors).length > 0)) && !own('errors')) return say();
  for (const field of ['error', 'errorMessage']) if (!noError(body[field]) && !own(field)) return say();
  return undefined;
}

/** A page's own paging fields (shape A flat, shape B's `page{}`, Spring's extras) and its records: never a verdict. */
const PAGE_FIELDS: ReadonlySet<string> = new Set([
  'content',
  'page',
  'number',
  'size',
  'totalElements',
  'totalPages',
  'numberOfElements',
  'first',
  'last',
  'empty',
  'sort',
  'pageable',
]);

/**
 * The failure a page object states in its own top-level fields (`"success": false`,
 * `"error": "db timeout"`, a 4xx/5xx status or code), wrapped in an envelope or not:
 * a bare page carries its verdict beside its paging fields. Its records and its
 * paging fields are left out, so a record's `status` or a page's `number` never reads
 * as one.
 */
export function pageFailure(page: unknown): StatedFailure | undefined {
  if (!isObject(page)) return undefined;
  const fields = Object.fromEntries(Object.entries(page).filter(([name]) => !PAGE_FIELDS.has(name)));
  return Object.keys(fields).length === 0 ? undefined : statedFailure(fields);
}

/** Whether `body` says outright that the call succeeded (`success: true`, a 0/2xx code, status OK). */
export function statesSuccess(fields: Record<string, unknown>): boolean {
  const body = resultView(fields);
  if (flag(body.success) === true || flag(body.ok) === true) return true;
  if (codeVerdict(body.code)?.failed === false) return true;
  return succeededStatus(body.status);
}
