/**
 * Everything the request pipeline of one running server holds: built once by
 * `createLocalServer` (server.ts) and handed to `buildApp` (app.ts), whose hooks
 * and routes read it.
 */
import type { AdminRuntime } from './admin.js';
import type { KeyRing } from './auth.js';
import type { ServerContext } from './context.js';
import type { IdempotencyKeys } from './idempotency.js';
import type { RateLimiter } from './rate-limit.js';
import type { RequestLog } from './request-log.js';

/** Everything the request pipeline of one running server holds. */
export interface Runtime extends ServerContext, AdminRuntime {
  limiter: RateLimiter;
  keys: KeyRing;
  idempotency: IdempotencyKeys;
  log: RequestLog;
  /** Where unexpected errors are reported (stderr). */
  warn(message: string): void;
}
