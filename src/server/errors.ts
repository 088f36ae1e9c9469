/**
 * The local server's own failures at start-up: a flag, address or data folder the
 * user got wrong. The server knows nothing of the CLI's exit codes; the CLI maps
 * these where it reports failures (src/cli/edge-errors.ts). Failures of a request
 * are `HttpProblem`s (problem.ts), answered to the client instead.
 */

/** Thrown when the server cannot start as asked; `hint` says what to change. */
export class ServerSetupError extends Error {
  readonly hint?: string;
  /** What was asked for is held by another process (the port), not mistyped. */
  readonly inUse: boolean;

  constructor(message: string, options?: { cause?: unknown; hint?: string; inUse?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options?.hint;
    this.inUse = options?.inUse === true;
  }
}
