/**
 * One attempt of a request, as an undici dispatch handler between the connection
 * and the RetryHandler (why: src/client/transport.ts). It notes when the request is
 * handed to a connection (`onRequestStart`: a failure before that cannot have
 * reached the service), reads the whole answer within its bounds
 * (src/client/answer-bounds.ts) into a sink or a buffer, decodes it
 * (src/client/answer-decoding.ts), and only then hands the RetryHandler the status
 * and headers, the body staying with the transport. A failure on the way is the
 * attempt's, worded by what it means: an answer that is not HTTP, one cut short.
 */
import type { Dispatcher } from 'undici';
import { ANSWER_CUT_SHORT, AnswerBoundError, createAnswerBounds, MalformedAnswerError } from './answer-bounds.js';
import { codings, decodeAnswer } from './answer-decoding.js';
import { proxyRefusal } from './proxy.js';
import { CONNECT_TIMEOUT, HEADERS_TIMEOUT } from './retry-policy.js';
import { answerLine, failureLine } from './trace.js';
import type { BodySink, RawResponse } from './raw-response.js';

/** An attempt's whole answer. */
export type AttemptAnswer = Omit<RawResponse, 'attempts'>;

export interface AttemptOptions {
  maxBytes: number;
  deadlineMs: number;
  /** Called when the request is handed to a connection. */
  sent(): void;
  /** Called with the whole answer, before the RetryHandler is told its status. */
  answered(answer: AttemptAnswer): void;
  sink?: (status: number) => BodySink | undefined;
  trace?: (line: string) => void;
}

function coded(message: string, code: string, cause?: unknown): Error {
  return Object.assign(new Error(message, cause === undefined ? {} : { cause }), { code });
}

function codeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * What a failure means by when it came, in the codes the retry rules and the
 * error mapping know: undici's parser errors (`HPE_*`) are an answer that is not
 * HTTP; any other failure once the headers had arrived cut the body short;
 * undici's timeouts and closed connections are named as the retry rules name them.
 */
function classify(error: Error, answered: boolean): Error {
  if (error instanceof AnswerBoundError || error instanceof MalformedAnswerError) return error;
  const code = codeOf(error);
  // undici 7 names its parser's error by class; its `code` (llhttp's HPE_* name) is sometimes left undefined.
  if (code?.startsWith('HPE_') || error.name === 'HTTPParserError')
    return new MalformedAnswerError(code ?? 'HPE_PARSE_ERROR', `the answer is not HTTP pla can read: ${error.message}`, { cause: error });
  if (answered) return code === ANSWER_CUT_SHORT ? error : coded('the connection closed before the whole answer arrived', ANSWER_CUT_SHORT, error);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return coded(error.message, CONNECT_TIMEOUT, error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return coded(error.message, HEADERS_TIMEOUT, error);
  const refused = proxyRefusal(error);
  if (refused) return refused;
  // "other side closed": the connection ended before any answer, as a reset does.
  if (code === 'UND_ERR_SOCKET') return coded(error.message, 'ECONNRESET', error);
  return error;
}

/**
 * Whether a 204, which has no body by HTTP's rules and may not announce one (unlike
 * a 304 or the answer to a HEAD, whose Content-Length describes the resource),
 * announces one anyway: its bytes would come after the answer, and the next request
 * on the connection would read them as its own answer's start.
 */
function strayBody(status: number, headers: Record<string, string | string[] | undefined>): boolean {
  return status === 204 && (Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined);
}

/** Ends a 204 that announced a body, closing its connection: the answer stands. */
class StrayBodyDropped extends Error {}

/**
 * The controller the RetryHandler is given: it pauses the whole answer while its
 * `retry` callback decides (and waits), and the attempt ends the answer once resumed.
 */
class AttemptController implements Dispatcher.DispatchController {
  #paused = false;
  #whenResumed: (() => void) | undefined;
  constructor(private readonly connection: () => Dispatcher.DispatchController | undefined) {}
  get aborted() {
    return this.connection()?.aborted ?? false;
  }
  get paused() {
    return this.#paused;
  }
  get reason() {
    return this.connection()?.reason ?? null;
  }
  abort(reason: Error) {
    this.connection()?.abort(reason);
  }
  pause() {
    this.#paused = true;
  }
  resume() {
    this.#paused = false;
    const next = this.#whenResumed;
    this.#whenResumed = undefined;
    next?.();
  }
  /** Runs `step` now, or when resumed. */
  unlessPaused(step: () => void) {
    if (this.#paused) this.#whenResumed = step;
    else step();
  }
}

/** The handler of one attempt (see the module comment); `upstream` is the RetryHandler. */
export function createAttempt(upstream: Dispatcher.DispatchHandler, options: AttemptOptions): Dispatcher.DispatchHandler {
  const started = performance.now();
  const bounds = createAnswerBounds({ maxBytes: options.maxBytes, deadlineMs: options.deadlineMs });
  let connection: Dispatcher.DispatchController | undefined;
  const controller = new AttemptController(() => connection);
  let answer: AttemptAnswer | undefined;
  let answered = false;
  let ended = false;
  let sink: BodySink | undefined;
  const chunks: Buffer[] = [];
  const abort = (error: Error) => connection?.abort(error);

  /** Hands the whole answer on: the status to the RetryHandler, which may pause to wait, then its end. */
  const finish = (whole: AttemptAnswer, trailers: Record<string, string | string[] | undefined>) => {
    if (ended) return;
    ended = true;
    bounds.done();
    options.answered(whole);
    upstream.onResponseStart?.(controller, whole.status, whole.headers, whole.statusText);
    controller.unlessPaused(() => upstream.onResponseEnd?.(controller, trailers));
  };
  const fail = (error: Error) => {
    if (ended) return;
    ended = true;
    bounds.done();
    options.trace?.(failureLine(error, performance.now() - started));
    upstream.onResponseError?.(controller, error);
  };

  return {
    onRequestStart(c, context) {
      connection = c;
      options.sent();
      bounds.sent();
      upstream.onRequestStart?.(controller, context);
    },
    onResponseStart(c, status, headers, statusText) {
      // 1xx answers are not the answer.
      if (status < 200) return;
      connection = c;
      answered = true;
      options.trace?.(answerLine(status, statusText ?? '', performance.now() - started));
      answer = { status, statusText: statusText ?? '', headers, body: Buffer.alloc(0) };
      if (!bounds.started(abort, headers)) return;
      if (strayBody(status, headers)) {
        // An answer that may not have a body but says it has one may send it: its connection is not used again.
        abort(new StrayBodyDropped());
        return;
      }
      if (codings(headers['content-encoding']).length === 0) sink = options.sink?.(status);
    },
    onResponseData(_c, chunk) {
      if (!bounds.data(abort, chunk)) return;
      if (sink) sink.write(chunk);
      else chunks.push(chunk);
    },
    onResponseEnd(_c, trailers) {
      if (answer === undefined) return;
      let body: Buffer;
      try {
        body = decodeAnswer(Buffer.concat(chunks), answer.headers['content-encoding'], options.maxBytes, bounds.tooLarge);
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      finish({ ...answer, body }, trailers);
    },
    onResponseError(_c, error) {
      if (error instanceof StrayBodyDropped && answer !== undefined) finish(answer, {});
      else fail(classify(error, answered));
    },
  };
}
