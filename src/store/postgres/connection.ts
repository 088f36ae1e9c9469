/**
 * What the PostgreSQL store needs to know of connection failures: which errors
 * mean "the database cannot be reached now" (answered 503 + Retry-After, retried
 * by clients) rather than a fault in a statement, and how to name the database
 * without its password.
 */

/** Socket errors of a database that is down, restarting or unreachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** SQLSTATEs of a server shutting down, starting up or full: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres's own messages for a lost or never-made connection. */
const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /connection timeout/i,
  /not queryable/i,
];

/** True when `error` says the database cannot be reached now (not that a statement was wrong). */
export function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message));
}
