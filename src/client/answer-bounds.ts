/**
 * Bounds on one answer, whatever the service sends: a cap on its size and a
 * deadline that counts the whole attempt, headers and body. undici's own
 * `bodyTimeout` is per chunk, so a service sending a byte every two seconds kept a
 * `--timeout 3` waiting forever, and one that never stops sending grew the CLI's
 * memory without end. Kept apart from the transport, which only calls these hooks:
 * `attempt` when an attempt is dispatched, `started`, `data` and `done` from the
 * handler that collects the answer.
 */
import type { Dispatcher } from 'undici';

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

export interface AnswerBoundsOptions {
  /** Most bytes an answer's body may have. */
  maxBytes: number;
  /** Milliseconds an attempt may take, from its dispatch to the last byte of the answer. */
  deadlineMs: number;
}

/** The hooks of one logical request (several attempts at most, one answer). */
export interface AnswerBounds {
  /** Wraps `dispatch` so each attempt notes when it started. */
  attempt(dispatch: Dispatcher['dispatch']): Dispatcher['dispatch'];
  /**
   * The answer's headers arrived: checks a declared Content-Length against the cap and
   * arms the deadline for what is left of the attempt's time (undici's headers timeout
   * covers the wait for headers, and its retry rules apply there).
   */
  started(controller: Dispatcher.DispatchController, headers: Record<string, string | string[] | undefined>): void;
  /** A chunk of the body arrived: false (and the answer aborted) once the total passes the cap. */
  data(controller: Dispatcher.DispatchController, chunk: Buffer): boolean;
  /** The answer ended, failed or was abandoned: disarms the deadline. */
  done(): void;
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

/** Creates the bounds of one logical request. */
export function createAnswerBounds(options: AnswerBoundsOptions): AnswerBounds {
  let attemptStarted = performance.now();
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  const tooLarge = () => new AnswerBoundError(ANSWER_TOO_LARGE, options.maxBytes, `the answer is larger than ${formatBytes(options.maxBytes)}`);

  return {
    attempt(dispatch) {
      return (opts, handler) => {
        attemptStarted = performance.now();
        received = 0;
        return dispatch(opts, handler);
      };
    },
    started(controller, headers) {
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        controller.abort(tooLarge());
        return;
      }
      clearTimeout(timer);
      const left = Math.max(0, attemptStarted + options.deadlineMs - performance.now());
      timer = setTimeout(() => {
        timer = undefined;
        controller.abort(new AnswerBoundError(ANSWER_DEADLINE, options.deadlineMs, `the answer did not end within ${options.deadlineMs / 1000} s`));
      }, left);
      timer.unref();
    },
    data(controller, chunk) {
      received += chunk.length;
      if (received <= options.maxBytes) return true;
      controller.abort(tooLarge());
      return false;
    },
    done() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
