/**
 * Every failure `pla` reports is a `PlaError`. Each subclass owns its exit code, so
 * the mapping from failure to exit code lives here and nowhere else; the CLI's
 * entry point (`src/cli/main.ts`) prints `message` as one line and sets the
 * process's exit code to `exitCode`.
 *
 * Exit codes: 0 ok · 1 unexpected · 2 usage/bad input · 3 auth · 4 not found ·
 * 5 rejected by the service · 6 rate limited · 7 server error · 8 network/timeout ·
 * 9 partial failure of a bulk run (or a listing that changed under --all) · 10 in use by
 * another process · 11 unreadable answer from the service · 130 interrupted.
 */

export const EXIT_CODES = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rejected: 5,
  rateLimited: 6,
  server: 7,
  network: 8,
  partial: 9,
  inUse: 10,
  invalidAnswer: 11,
  interrupted: 130,
} as const;

export type { FieldProblem } from './contract/types.js';

/** Thrown when something went wrong that no more specific class describes (exit 1). */
export class PlaError extends Error {
  readonly exitCode: number = EXIT_CODES.unexpected;
  /** Extra lines shown with `--verbose` (e.g. the full problem body). */
  detail?: unknown;
  /** A short hint on what to do next, printed after the message. */
  hint?: string;
  /**
   * Set when a call that creates failed after the service may have received it and
   * was not repeated (a 5xx, a timeout or a reset once the request was sent): it may
   * or may not have been carried out.
   */
  outcomeUnknown?: boolean;

  constructor(message: string, options?: { cause?: unknown; detail?: unknown; hint?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.detail = options?.detail;
    this.hint = options?.hint;
  }
}

/** Thrown when the command line or an input file is wrong: bad flag, malformed JSON or CSV (exit 2). */
export class UsageError extends PlaError {
  override readonly exitCode: number = EXIT_CODES.usage;
}

/** Thrown when an input file has a bad record; carries its 1-based line number (exit 2). */
export class InputError extends UsageError {
  constructor(
    message: string,
    readonly line?: number,
    options?: { cause?: unknown },
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`, options);
  }
}

/**
 * The request a client error is about: facts the message names and the CLI's
 * hints build on (src/cli/error-hints.ts). The client itself gives no hints.
 */
export interface FailedRequest {
  method: string;
  path: string;
  origin: string;
  /** The environment the client was made for, when it was told. */
  env?: string;
  /** The proxy it went through, masked, with where it was set: `http://ana:••••@p:3128 (HTTPS_PROXY)`. */
  proxy?: string;
  /** The environment's CA file, when it has one. */
  caFile?: string;
  /** Seconds the service asked to wait (`Retry-After`), when longer than pla waits: the call failed at once. */
  retryAfterS?: number;
}

/** Why a network failure happened, when the client can tell more than "no connection". */
export type NetworkFailure =
  | { kind: 'certificate' }
  | { kind: 'tls-handshake' }
  | { kind: 'proxy-refused'; status: number }
  /** The answer passed `--max-answer-size`. */
  | { kind: 'answer-too-large'; limitBytes: number }
  /** The answer was still arriving when the attempt's `--timeout` ran out. */
  | { kind: 'answer-deadline' }
  /** The connection closed before the answer's end (its Content-Length or last chunk). */
  | { kind: 'answer-cut-short' }
  /** The answer was not HTTP pla can read (a parser error), or its body did not decode. */
  | { kind: 'malformed-answer' };

/** Thrown when the service answered with an error status; base of the HTTP failures. */
export class ApiError extends PlaError {
  readonly request?: FailedRequest;

  constructor(
    message: string,
    readonly status: number,
    readonly problem?: unknown,
    options?: { request?: FailedRequest },
  ) {
    super(message, { detail: problem });
    if (options?.request) this.request = options.request;
  }
}

/** Thrown on 401 or 403: missing, wrong or revoked key, or a key without the permission (exit 3). */
export class AuthError extends ApiError {
  override readonly exitCode: number = EXIT_CODES.auth;
}

/** Thrown on 404: unknown id or path (exit 4). */
export class NotFoundError extends ApiError {
  override readonly exitCode: number = EXIT_CODES.notFound;
}

/** Thrown on 400, 409, 413, 415, 422 and other 4xx: the service refused the request (exit 5). */
export class RejectedError extends ApiError {
  override readonly exitCode: number = EXIT_CODES.rejected;
}

/**
 * Thrown on a 3xx naming a Location: pla does not follow redirects (its key must not
 * go where an answer sends it), so the message says where to (exit 5).
 */
export class RedirectError extends RejectedError {
  readonly location: string;

  constructor(message: string, status: number, problem: unknown, options: { request?: FailedRequest; location: string }) {
    super(message, status, problem, options);
    this.location = options.location;
  }
}

/** Thrown on 429 once retries are used up (exit 6). */
export class RateLimitError extends ApiError {
  override readonly exitCode: number = EXIT_CODES.rateLimited;
}

/** Thrown on 5xx once retries are used up (exit 7). */
export class ServerError extends ApiError {
  override readonly exitCode: number = EXIT_CODES.server;
}

/** Thrown when the service could not be reached or did not answer in time (exit 8). */
export class NetworkError extends PlaError {
  override readonly exitCode: number = EXIT_CODES.network;
  /** It was reached, or maybe not, but did not answer within the timeout. */
  readonly timedOut: boolean;
  readonly request?: FailedRequest;

  /** A certificate not trusted, a failed TLS handshake, or a proxy that refused the tunnel. */
  readonly failure?: NetworkFailure;

  constructor(message: string, options: { cause?: unknown; timedOut?: boolean; request?: FailedRequest; failure?: NetworkFailure } = {}) {
    super(message, { cause: options.cause });
    this.timedOut = options.timedOut === true;
    if (options.request) this.request = options.request;
    if (options.failure) this.failure = options.failure;
  }
}

/**
 * Thrown when the service answered a success pla cannot read: a body that claims
 * JSON and is not (exit 11). The service's fault, not pla's (1) nor the request's
 * (5); whether a write it answered was carried out is unknown.
 */
export class InvalidAnswerError extends PlaError {
  override readonly exitCode: number = EXIT_CODES.invalidAnswer;
}

/**
 * Thrown when a 2xx answer is not one pla can read as the operation's result: an
 * HTML page (a gateway's sign-in page answered 200), other text, JSON that is not
 * valid, or JSON of another shape than the operation gives; `saw` says what came.
 * A read cannot show it; a write is not confirmed by it, so the CLI reads back
 * before it says anything happened, and when that cannot tell either the error
 * carries `outcomeUnknown` (exit 11 either way).
 */
export class UnreadableAnswerError extends InvalidAnswerError {
  readonly request?: FailedRequest;

  constructor(
    message: string,
    readonly status: number,
    readonly saw: string,
    readonly problem?: unknown,
    options?: { request?: FailedRequest },
  ) {
    super(message, { detail: problem });
    if (options?.request) this.request = options.request;
  }
}

/**
 * Thrown when an answer is not the page asked for and no rule explains how (a page
 * number that is not the one asked, a link leading back, a page of repeats): the
 * listing could not be read (exit 11), never taken for the page asked for.
 */
export class PageMismatchError extends InvalidAnswerError {}

/** Thrown when a bulk run finished but some records failed (exit 9). */
export class PartialFailureError extends PlaError {
  override readonly exitCode: number = EXIT_CODES.partial;
}

/**
 * Thrown when a run's receipt cannot be written (a full disk, a folder made
 * read-only): the run stops before its next batch, and the message says what the
 * service may have done (exit 9, as a run part done).
 */
export class ReceiptError extends PartialFailureError {}

/**
 * Thrown when a bulk run's checkpoint cannot be written (a full disk, a folder made
 * read-only): the run stops before its next batch, as for a receipt (exit 9); when
 * it cannot be written at the start, nothing was sent.
 */
export class CheckpointError extends PartialFailureError {}

/**
 * Thrown when a page walk saw the records change under it (exit 9, a partial
 * result): the listing may miss records added or removed meanwhile.
 */
export class PagingDriftError extends PlaError {
  override readonly exitCode: number = EXIT_CODES.partial;
}

/**
 * Thrown when what a command needs is held by another process: the local server's
 * data folder (another server has it) or its port (exit 10). Not the user's typo
 * (2) nor a bug (1): the fix is to stop the other process or pick another one.
 */
export class InUseError extends PlaError {
  override readonly exitCode: number = EXIT_CODES.inUse;
}

/**
 * Thrown when a pla process this one started and waited on (a detached server,
 * before it listened) stopped by itself: its exit code, on pla's own mapping, is
 * this one's (a bad flag stays 2, a port in use 10), so `URL=$(pla server start -d
 * -q) || …` can tell them apart; killed by a signal (no code), 1.
 */
export class ChildExitError extends PlaError {
  override readonly exitCode: number;

  constructor(message: string, exitCode: number | null, options?: { hint?: string }) {
    super(message, options);
    this.exitCode = exitCode !== null && exitCode > 0 ? exitCode : EXIT_CODES.unexpected;
  }
}

/** Thrown when the user interrupted the run (Ctrl-C) after it wound down cleanly (exit 130). */
export class InterruptedError extends PlaError {
  override readonly exitCode: number = EXIT_CODES.interrupted;
}

/**
 * Thrown when the reader of stdout went away (`pla … | head`). Not a failure: the
 * run stops quietly with exit 0, as `git log | head` does.
 */
export class OutputClosedError extends PlaError {
  override readonly exitCode: number = EXIT_CODES.ok;

  constructor() {
    super('output closed by its reader');
  }
}

/** Exit code for anything thrown: a `PlaError`'s own, else 1. */
export function exitCodeOf(error: unknown): number {
  return error instanceof PlaError ? error.exitCode : EXIT_CODES.unexpected;
}

/** Human descriptions of the exit codes, for `pla help exit-codes` and the README. */
export const EXIT_CODE_HELP: ReadonlyArray<readonly [number, string]> = [
  [EXIT_CODES.ok, 'success'],
  [EXIT_CODES.unexpected, 'unexpected error (a bug: please report it with --verbose output)'],
  [EXIT_CODES.usage, 'usage error or bad input file (bad flag, malformed JSON/CSV, wrong types)'],
  [EXIT_CODES.auth, 'authentication or permission refused (401/403): check the key with `pla config show`'],
  [EXIT_CODES.notFound, 'not found (404): unknown id or path'],
  [EXIT_CODES.rejected, 'rejected by the service (400/409/413/415/422), or redirected (3xx: the error names the Location): fix the request and retry'],
  [EXIT_CODES.rateLimited, 'rate limited (429) after all retries'],
  [EXIT_CODES.server, 'server error (5xx) after all retries'],
  [
    EXIT_CODES.network,
    'network error, timeout (--timeout counts the whole answer), an answer over --max-answer-size, proxy refusal or untrusted TLS certificate: `pla doctor` checks each step',
  ],
  [
    EXIT_CODES.partial,
    'partial failure of a bulk run: records refused (see the rejects file), input rows unreadable, or records of unknown outcome (see the unknown-outcome file), or a receipt that could not be written (the run stopped before its next batch); or a listing whose records changed while --all read it (see --allow-drift)',
  ],
  [EXIT_CODES.inUse, 'in use: `pla server start` found its data folder held by another server, or its port taken'],
  [
    EXIT_CODES.invalidAnswer,
    "the service answered something pla cannot read (a success whose JSON is invalid, an HTML page, another shape, a listing in no form pla knows or whose pages stop before the count it gave): its fault, not the request's; check what it did before sending again",
  ],
  [EXIT_CODES.interrupted, 'interrupted (Ctrl-C; SIGTERM exits 143, SIGHUP 129); the rerun the hint names finishes the job'],
];
