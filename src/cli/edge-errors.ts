/**
 * Where the failures of the rooms that know nothing of the CLI become the CLI's:
 * the store (`StoreError`) and the local server (`ServerSetupError`) throw plain
 * errors with a hint, and this maps them to the `PlaError` that carries their exit
 * code (src/errors.ts), at the edge where `pla` reports a failure. Loaded only
 * when something failed.
 */
import { InUseError, PlaError, UsageError } from '../errors.js';
import { ServerSetupError } from '../server/errors.js';
import { StoreError, StoreLockedError } from '../store/errors.js';

/** `error` as the CLI reports it: server and store failures as `PlaError`s, anything else as it is. */
export function atTheEdge(error: unknown): unknown {
  // A port or data folder another process holds: exit 10, stop that one or pick another.
  if ((error instanceof ServerSetupError && error.inUse) || error instanceof StoreLockedError) {
    return new InUseError(error.message, { cause: error, ...(error.hint ? { hint: error.hint } : {}) });
  }
  // A flag, address or data folder the user got wrong: a usage error (exit 2).
  if (error instanceof ServerSetupError) return new UsageError(error.message, { cause: error, ...(error.hint ? { hint: error.hint } : {}) });
  // The data folder damaged or full: reported with its hint (exit 1, as an unexpected failure).
  if (error instanceof StoreError) return new PlaError(error.message, { cause: error, ...(error.hint ? { hint: error.hint } : {}) });
  return error;
}
