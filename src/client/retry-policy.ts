/**
 * When to retry and how long to wait. The transport does the retrying (sending
 * the request again, counting attempts); this module only decides, so the rules
 * read in one place:
 * - 429 is always retried: the service did not process the request.
 * - A failure before the request was sent (connection refused, DNS, connect
 *   timeout) is always retried: nothing reached the service. Except a connection
 *   refused by this machine (`local`): nothing listens on that port, and waiting
 *   will not start a server; the CLI names the local servers it knows instead.
 * - 5xx, timeouts and resets after the request was sent are retried only for calls
 *   that are safe to repeat: reads, searches, updates by id, deletes, cancels. Calls
 *   that create (see `createsRecords`) may have been carried out by then; repeating
 *   them could create twice, since whether the real service honours the
 *   `Idempotency-Key` the client sends is not shown. `--retry-unsafe` repeats them
 *   anyway (right against a service that honours the key, such as `pla server`).
 * - Waits use exponential backoff with full jitter (base 0.5 s, doubling, capped at
 *   20 s) unless the answer says `Retry-After`, which wins; one over 60 s ends the call at once.
 */
import { verbOf, type OperationId } from '../contract/operations.js';
import { ANSWER_CUT_SHORT } from './answer-bounds.js';
import { CLIENT_DEFAULTS } from './defaults.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * Operations that create whatever their body, by their verb (`verbOf`, bulk
 * counterparts included): create, notification and e-mail creation (an e-mail
 * sent twice is sent twice), image upload, work order.
 */
const CREATING_VERBS = new Set(['create', 'upload', 'workOrder']);

/** Operations that create when a record of their body has no `id`. */
const UPSERT_VERB = 'upsert';

function lacksId(record: unknown): boolean {
  if (typeof record !== 'object' || record === null) return true;
  const { id } = record as { id?: unknown };
  return id === undefined || id === null;
}

/** Whether a call of the contract operation `operationId` with `body` may create records. */
export function createsRecords(operationId: OperationId, body: unknown): boolean {
  const verb = verbOf(operationId) ?? '';
  if (CREATING_VERBS.has(verb)) return true;
  if (verb !== UPSERT_VERB) return false;
  return Array.isArray(body) ? body.some(lacksId) : lacksId(body);
}

/**
 * Whether a call may be repeated once the service may have received it. A contract
 * operation is, unless it creates; a raw call (`pla api`) is unless it is a POST.
 */
export function safeToRepeat(call: { operationId?: OperationId; method: string; body?: unknown }): boolean {
  if (call.operationId !== undefined) return !createsRecords(call.operationId, call.body);
  return SAFE_METHODS.has(call.method);
}

/** Code of an attempt that could not connect within its deadline (src/client/transport.ts). */
export const CONNECT_TIMEOUT = 'PLA_CONNECT_TIMEOUT';
/** Code of an attempt sent whose answer did not begin within its deadline. */
export const HEADERS_TIMEOUT = 'PLA_HEADERS_TIMEOUT';

/** Error codes of failures to reach the service or to hear back in time. */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  CONNECT_TIMEOUT,
  HEADERS_TIMEOUT,
  ANSWER_CUT_SHORT,
]);

/** Codes of the timeouts among them. */
export const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEDOUT', CONNECT_TIMEOUT, HEADERS_TIMEOUT]);

export interface FailedAttempt {
  /** Whether the call may be repeated once the service may have received it (`safeToRepeat`, or --retry-unsafe). */
  repeatable: boolean;
  /** Whether this attempt's request was handed to the connection (so it may have reached the service). */
  sent: boolean;
  /** HTTP status, when the service answered. */
  status?: number;
  /** Error code, when it did not. */
  code?: string;
  /** Failed attempts so far, 1 after the first. */
  attempt: number;
  /** Retries allowed after the first attempt. */
  retries: number;
  retryAfter?: string | string[];
  /** The service is on this machine (`isLoopbackOrigin`): a refused connection there is final. */
  local?: boolean;
}

/** Whether `origin` (a base URL or `http://host:port`) is this machine: localhost, 127.x.x.x or ::1. */
export function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
}

/** The seconds a `Retry-After` asks for when longer than pla waits (the call then fails at once), else undefined. */
export function longWait(header: string | string[] | undefined): number | undefined {
  const asked = parseRetryAfter(header);
  return asked === undefined || asked <= CLIENT_DEFAULTS.retryAfterCapMs ? undefined : Math.ceil(asked / 1000);
}

/** Milliseconds to wait before the next attempt, or undefined when the failure is final. */
export function retryDelay(failure: FailedAttempt): number | undefined {
  if (failure.attempt > failure.retries) return undefined;
  const { status, code, repeatable } = failure;
  if (code === 'ECONNREFUSED' && failure.local === true) return undefined;
  const retryable =
    status === 429 ||
    // 501 and 505 say the service cannot do this at all: asking again will not help.
    (status !== undefined && status >= 500 && status !== 501 && status !== 505 && repeatable) ||
    (status === undefined && code !== undefined && NETWORK_ERROR_CODES.has(code) && (repeatable || !failure.sent));
  if (!retryable) return undefined;
  const asked = parseRetryAfter(failure.retryAfter);
  // Asked to wait longer than pla waits: fail now (the error says so) rather than hang, or come back early against its word.
  if (asked !== undefined) return asked > CLIENT_DEFAULTS.retryAfterCapMs ? undefined : asked;
  return Math.floor(Math.random() * Math.min(CLIENT_DEFAULTS.backoffCapMs, CLIENT_DEFAULTS.backoffBaseMs * 2 ** (failure.attempt - 1)));
}

/** `Retry-After` as milliseconds from now: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
