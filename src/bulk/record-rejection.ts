/**
 * Whether the service refused the items themselves (so a smaller batch may pass),
 * rather than the request as such. 415 (wrong media type) is about the request:
 * splitting would only send the same mistake many times. A module of its own so
 * that a single `get` or `delete` (src/cli/handlers/per-item.ts) does not load the
 * batch splitter and the write confirmation with it (docs/startup.md).
 */
import { NotFoundError, RejectedError } from '../errors.js';

export function isRecordRejection(error: unknown): boolean {
  return (error instanceof RejectedError && error.status !== 415) || error instanceof NotFoundError;
}
