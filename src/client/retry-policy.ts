/**
 * When to retry and how long to wait. undici's RetryHandler does the retrying
 * (replaying the request, counting attempts); this module only decides, so the
 * rules read in one place:
 * - 429 is always retried: the service did not process the request.
 * - 5xx and network failures are retried only when repeating the request is safe:
 *   idempotent methods, and POST when it carries an idempotency key.
 * - Waits use exponential backoff with full jitter (base 0.5 s, doubling, capped at
 *   20 s) unless the answer says `Retry-After`, which wins (capped at 60 s).
 */
import { CLIENT_DEFAULTS } from './defaults.js';

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

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
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Codes of the timeouts among them. */
export const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export interface FailedAttempt {
  method: string;
  /** Whether the request carries an `idempotency-key` header. */
  hasIdempotencyKey: boolean;
  /** HTTP status, when the service answered. */
  status?: number;
  /** Error code, when it did not. */
  code?: string;
  /** Failed attempts so far, 1 after the first. */
  attempt: number;
  /** Retries allowed after the first attempt. */
  retries: number;
  retryAfter?: string | string[];
}

/** Milliseconds to wait before the next attempt, or undefined when the failure is final. */
export function retryDelay(failure: FailedAttempt): number | undefined {
  if (failure.attempt > failure.retries) return undefined;
  const repeatable = IDEMPOTENT_METHODS.has(failure.method) || (failure.method === 'POST' && failure.hasIdempotencyKey);
  const { status, code } = failure;
  const retryable =
    status === 429 ||
    // 501 and 505 say the service cannot do this at all: asking again will not help.
    (status !== undefined && status >= 500 && status !== 501 && status !== 505 && repeatable) ||
    (status === undefined && code !== undefined && NETWORK_ERROR_CODES.has(code) && repeatable);
  if (!retryable) return undefined;
  const asked = parseRetryAfter(failure.retryAfter);
  if (asked !== undefined) return Math.min(asked, CLIENT_DEFAULTS.retryAfterCapMs);
  return Math.floor(Math.random() * Math.min(CLIENT_DEFAULTS.backoffCapMs, CLIENT_DEFAULTS.backoffBaseMs * 2 ** (failure.attempt - 1)));
}

/** `Retry-After` as milliseconds from now: delta seconds or an HTTP date; undefined when absent or unreadable. */
function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
