import { InUseError, PlaError } from '../errors.js';

/** Thrown when another process holds the data folder's lock; the message names it (exit 10). */
export class StoreLockedError extends InUseError {}

/** Thrown when a snapshot or a journal line in the middle of the journal cannot be read; names the file and line. */
export class StoreCorruptError extends PlaError {}

/** Thrown by writes after `close()`, or after a write failed and the store stopped taking writes. */
export class StoreUnavailableError extends PlaError {}
