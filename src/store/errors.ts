/**
 * The store's failures. The store knows nothing of the CLI: these are plain errors
 * with a hint for whoever reports them, and the CLI maps them to exit codes where
 * it reports failures (src/cli/edge-errors.ts).
 */

/** Base of every failure the store reports on purpose. */
export class StoreError extends Error {
  /** What to do about it, for a person. */
  readonly hint?: string;

  constructor(message: string, options?: { cause?: unknown; hint?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options?.hint;
  }
}

/** Thrown when another process holds the data folder's lock; the message names it. */
export class StoreLockedError extends StoreError {}

/** Thrown when a snapshot or a journal line in the middle of the journal cannot be read; names the file and line. */
export class StoreCorruptError extends StoreError {}

/** Thrown by writes after `close()`, or after a write failed and the store stopped taking writes. */
export class StoreUnavailableError extends StoreError {}

/** Thrown by a write the data folder had no space for; nothing of it was kept, and writes go on once space is free. */
export class StoreFullError extends StoreError {}

/** True for the errors of a full disk or an exhausted quota. */
export function isOutOfSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
