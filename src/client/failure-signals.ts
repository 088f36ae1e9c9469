/**
 * The ways a service says "failed" or "done" inside a 2xx answer, one rule each,
 * read by the envelope (src/client/envelope.ts) and by the per-item results of a
 * bulk answer (src/confirm/item-results.ts): a false or "false" success flag, a
 * status of ERROR/FAILED/FAIL, a non-empty errors list, an error code, an error
 * message. Spring-style services use every one of them.
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
]);

/** Status words that mean the call failed (compared upper-cased). */
const FAILED_STATUSES: ReadonlySet<string> = new Set(['ERROR', 'FAILED', 'FAIL', 'FAILURE', 'REJECTED']);

/** Status words that mean it succeeded. */
const SUCCEEDED_STATUSES: ReadonlySet<string> = new Set(['OK', 'SUCCESS', 'SUCCEEDED', 'DONE']);

/** A flag as services write it: `false`, `"false"`, `0` is false; `true`, `"true"` true; anything else says nothing. */
export function flag(value: unknown): boolean | undefined {
  if (value === true || value === 'true' || value === 'TRUE') return true;
  if (value === false || value === 'false' || value === 'FALSE' || value === 0) return false;
  return undefined;
}

/** What a `code` field says: 0 and 2xx (or "OK", "SUCCESS") succeeded; anything else failed, with its HTTP status when it is one. */
function codeVerdict(code: unknown): { failed: boolean; status?: number } | undefined {
  if (code === undefined || code === null || code === '') return undefined;
  const text = String(code).trim();
  if (/^(0|2\d\d)$/.test(text) || SUCCEEDED_STATUSES.has(text.toUpperCase())) return { failed: false };
  const n = Number(text);
  return Number.isInteger(n) && n >= 400 && n <= 599 ? { failed: true, status: n } : { failed: true };
}

/** The words a failure body gives: `message`, `msg`, `reason`, `error`, `errorMessage`, or the first of `errors`. */
export function failureWords(body: Record<string, unknown>): string | undefined {
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
  const say = (status?: number) => ({ message: failureWords(body) ?? 'no message', ...(status !== undefined ? { status } : {}) });
  const own = (field: string) => sent !== undefined && field in sent && sent[field] === body[field];
  if (flag(body.success) === false || flag(body.ok) === false || flag(body.failed) === true) return say();
  // A record's `code` and `status` are its own fields (a determination's code, a FAILED task): verdicts only in an envelope or a result.
  if (!options.record) {
    const raw = body.code ?? body.errorCode;
    // An item's text code may be its own (a determination's `ATD-ACQ`): only a number is a verdict there.
    const code = own('code') || (options.item && typeof raw === 'string' && !/^-?\d+$/.test(raw.trim())) ? undefined : codeVerdict(raw);
    if (code?.failed) return say(code.status);
    const { status } = body;
    if (typeof status === 'number' && status >= 400 && status <= 599 && !own('status')) return say(status);
    if (typeof status === 'string' && FAILED_STATUSES.has(status.toUpperCase()) && !own('status')) return say();
  }
  if (Array.isArray(body.errors) && body.errors.length > 0 && !own('errors')) return say();
  for (const field of ['error', 'errorMessage']) {
    const value = body[field];
    if (value !== undefined && value !== null && value !== '' && value !== false && !own(field)) return say();
  }
  return undefined;
}

/** Whether `body` says outright that the call succeeded (`success: true`, a 0/2xx code, status OK). */
export function statesSuccess(body: Record<string, unknown>): boolean {
  if (flag(body.success) === true || flag(body.ok) === true) return true;
  if (codeVerdict(body.code)?.failed === false) return true;
  return typeof body.status === 'string' && SUCCEEDED_STATUSES.has(body.status.toUpperCase());
}
