import { PlaError } from '../errors.js';

/** Thrown when another process holds the data folder's lock; the message names it. */
export class StoreLockedError extends PlaError {}

/** Thrown when a snapshot or a journal line in the middle of the journal cannot be read; names the file and line. */
export class StoreCorruptError extends PlaError {}

/** Thrown by writes after `close()`, or after a write failed and the store stopped taking writes. */
export class StoreUnavailableError extends PlaError {}

/** Thrown by a write the data folder had no space for; nothing of it was kept, and writes go on once space is free. */
export class StoreFullError extends PlaError {}

/** True for the errors of a full disk or an exhausted quota. */
export function isOutOfSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
