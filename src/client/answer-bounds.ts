/**
 * Bounds on one answer, whatever the service sends: a cap on its size and a
 * deadline that counts the whole attempt, headers and body. A per-chunk timeout
 * let a service sending a byte every two seconds keep a `--timeout 3` waiting
 * forever, and one that never stops sending grew the CLI's memory without end.
 * undici's own `bodyTimeout` is per chunk, hence this deadline. Kept apart from
 * the transport, which calls these hooks for each attempt: `sent` when it is
 * handed to a connection, `started`, `data` and `done` while its answer arrives.
 * Also the errors of an answer that arrived broken (cut short, undecodable, not
 * HTTP), which are the transport's to raise and the error mapping's to word.
 */

/** Code of the error an answer over the size cap is aborted with. */
export const ANSWER_TOO_LARGE = 'PLA_ANSWER_TOO_LARGE';
/** Code of the error an answer past its deadline is aborted with. */
export const ANSWER_DEADLINE = 'PLA_ANSWER_DEADLINE';

/** An answer cut short by its bounds: `code` says which bound, `limit` its value (bytes or ms). */
export class AnswerBoundError extends Error {
  constructor(
    readonly code: typeof ANSWER_TOO_LARGE | typeof ANSWER_DEADLINE,
    readonly limit: number,
    message: string,
  ) {
    super(message);
    this.name = 'AnswerBoundError';
  }
}

/**
 * Code of an answer whose body ended before its Content-Length (or its last chunk):
 * the connection closed mid-body. A network failure (retried for repeatable calls
 * only, src/client/retry-policy.ts), worded apart from "cannot reach".
 */
export const ANSWER_CUT_SHORT = 'PLA_ANSWER_CUT_SHORT';

/**
 * An answer pla could not read as HTTP: the parser's `HPE_*` errors (something on
 * the port that does not speak HTTP/1.1, or a broken proxy), or a body whose
 * Content-Encoding does not decode. `code` is the parser's or zlib's.
 */
export class MalformedAnswerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MalformedAnswerError';
  }
}

export interface AnswerBoundsOptions {
  /** Most bytes an answer's body may have. */
  maxBytes: number;
  /** Milliseconds an attempt may take, from sending to the last byte of the answer. */
  deadlineMs: number;
}

/**
 * The hooks of one attempt; `abort` ends the attempt with the error given (undici's
 * `DispatchController.abort`, which also closes the connection).
 */
export interface AnswerBounds {
  /** The attempt was handed to a connection: its deadline starts. */
  sent(): void;
  /**
   * The answer's headers arrived: false (and the attempt aborted) when a declared
   * Content-Length passes the cap; else the deadline is armed for what is left of
   * the attempt's time (undici's headers timeout covers the wait for headers, so
   * that its failure goes through the retry rules).
   */
  started(abort: (error: Error) => void, headers: Record<string, string | string[] | undefined>): boolean;
  /** A chunk of the body arrived: false (and the attempt aborted) once the total passes the cap. */
  data(abort: (error: Error) => void, chunk: Buffer): boolean;
  /** The attempt ended, failed or was abandoned: disarms the deadline. */
  done(): void;
  /** The error of an answer over the cap (also for a body that decodes to more). */
  tooLarge(): AnswerBoundError;
}

/** `64 MB`, `1.5 GB`: a size as the messages and the help say it. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** Creates the bounds of one attempt. */
export function createAnswerBounds(options: AnswerBoundsOptions): AnswerBounds {
  let sentAt = performance.now();
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  const tooLarge = () => new AnswerBoundError(ANSWER_TOO_LARGE, options.maxBytes, `the answer is larger than ${formatBytes(options.maxBytes)}`);

  return {
    sent() {
      sentAt = performance.now();
    },
    started(abort, headers) {
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        abort(tooLarge());
        return false;
      }
      const left = Math.max(0, sentAt + options.deadlineMs - performance.now());
      timer = setTimeout(() => {
        timer = undefined;
        abort(new AnswerBoundError(ANSWER_DEADLINE, options.deadlineMs, `the answer did not end within ${options.deadlineMs / 1000} s`));
      }, left);
      return true;
    },
    data(abort, chunk) {
      received += chunk.length;
      if (received <= options.maxBytes) return true;
      abort(tooLarge());
      return false;
    },
    done() {
      clearTimeout(timer);
      timer = undefined;
    },
    tooLarge,
  };
}
