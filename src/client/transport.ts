/**
 * Sends one logical request through undici: its `RetryHandler` repeats it, with
 * the rules of src/client/retry-policy.ts as the handler's `retry` callback, over
 * the client's dispatcher (src/client/dispatcher.ts). Returns any answer the
 * service gave (error statuses included, with their bodies: the handler runs with
 * `throwOnError: false`); throws only when there was none.
 *
 * Why each attempt goes through a handler of ours below the RetryHandler
 * (src/client/attempt.ts), rather than straight to it: two of pla's rules are not
 * undici's. A failure may be repeated for a create only when the attempt was not
 * yet handed to a connection; undici's retry callback is told the error, not
 * whether the request went out, so the attempt notes it (`onRequestStart`). And an
 * answer cut short is a failed attempt, sent again whole or not at all; undici
 * resumes a body that has started with a `Range` request, which a JSON API does
 * not serve. So the attempt hands the RetryHandler only whole answers, its body
 * read (bounded, decoded) before the RetryHandler sees the status.
 */
import { type Dispatcher, RetryHandler } from 'undici';
import { maskUrl } from '../contract/secrets.js';
import { type AttemptAnswer, createAttempt } from './attempt.js';
import { createDispatcher } from './dispatcher.js';
import type { BodySink, RawResponse } from './raw-response.js';
import { transportError, type RequestLabel } from './error-mapping.js';
import type { ProxyChoice } from './proxy.js';
import { isLoopbackOrigin, retryDelay } from './retry-policy.js';
import { retryLine, sendLine } from './trace.js';

export type { BodySink, RawResponse };

export interface OutgoingRequest {
  method: string;
  /** Path and query, base URL prefix included. */
  path: string;
  headers: Record<string, string>;
  /** Strings and buffers only: each attempt sends the body again, which a consumed stream cannot be. */
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Whether the request may be repeated once the service may have received it (see retry-policy). */
  repeatable: boolean;
  /**
   * Asked once the answer's status is known: a sink that takes the body chunk by chunk
   * instead of the transport collecting it (list pages: src/client/streamed-body.ts),
   * `body` then empty; undefined collects it. Not asked for an encoded body (gzip, br,
   * deflate), which is collected and decoded whole. Its `write` must not throw.
   */
  sink?: (status: number) => BodySink | undefined;
}

export interface TransportOptions {
  origin: string;
  retries: number;
  /** Deadline of each attempt, connection, headers and whole body (src/client/answer-bounds.ts). */
  timeoutMs: number;
  /** Most bytes an answer's body may have. */
  maxAnswerBytes: number;
  /** The undici dispatcher to send through; tests may inject one, left open on close (its owner closes it). */
  dispatcher?: Dispatcher;
  /** The proxy the messages name (the dispatcher chooses the same, src/client/dispatcher.ts). */
  proxy?: ProxyChoice;
  /** The environment's configured proxy URL, for the dispatcher (ignored with an injected one). */
  configuredProxy?: string;
  /** The variables HTTP(S)_PROXY and NO_PROXY are read from (ignored with an injected dispatcher). */
  variables?: Readonly<Record<string, string | undefined>>;
  /** PEM text of extra trusted certificate authorities (ignored with an injected dispatcher). */
  ca?: string;
  /** Where `ca` came from, for the hint on a certificate error. */
  caFile?: string;
  trace?: (line: string) => void;
  env?: string;
}

export interface Transport {
  send(request: OutgoingRequest): Promise<RawResponse>;
  /** Request details for error messages. */
  label(request: OutgoingRequest, attempts: number): RequestLabel;
  close(): Promise<void>;
}

/** Sent as Accept-Encoding: exactly the codings the attempt decodes (src/client/answer-decoding.ts). */
const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

function codeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Creates the transport; an injected dispatcher is used as is and left open on close. */
export function createTransport(options: TransportOptions): Transport {
  const owned = options.dispatcher === undefined;
  // A connection refused on this machine before any answer is not retried: nothing
  // listens there, and waiting will not start a server. Once the service answered,
  // a refusal is a server restarting (kill -9, then started again): retried as anywhere.
  const loopback = isLoopbackOrigin(options.origin);
  let answeredOnce = false;
  const dispatcher =
    options.dispatcher ??
    createDispatcher({
      origin: options.origin,
      timeoutMs: options.timeoutMs,
      variables: options.variables ?? {},
      ...(options.configuredProxy ? { proxy: options.configuredProxy } : {}),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
    });
  if (owned && options.proxy) options.trace?.(`proxy ${maskUrl(options.proxy.url)} (${options.proxy.source})`);

  const label = (request: OutgoingRequest, attempts: number): RequestLabel => ({
    method: request.method,
    path: request.path,
    origin: options.origin,
    attempts,
    timeoutMs: options.timeoutMs,
    ...(options.env ? { env: options.env } : {}),
    ...(options.proxy ? { proxy: options.proxy } : {}),
    ...(options.caFile ? { caFile: options.caFile } : {}),
  });

  function send(request: OutgoingRequest): Promise<RawResponse> {
    const { signal } = request;
    return new Promise<RawResponse>((resolve, reject) => {
      let attempts = 0;
      /** Whether the current attempt was handed to a connection, and its answer once whole. */
      let current: { sent: boolean; answer?: AttemptAnswer } = { sent: false };
      let controller: Dispatcher.DispatchController | undefined;
      let cancelWait: (() => void) | undefined;
      let settled = false;

      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const interrupted = () => settle(() => reject(transportError(signal?.reason, label(request, attempts), true)));
      function onAbort() {
        cancelWait?.();
        controller?.abort(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        interrupted();
      }
      if (signal?.aborted) {
        interrupted();
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });

      /** Each attempt: a fresh handler of ours between the RetryHandler and the connection. */
      const dispatchAttempt: Dispatcher['dispatch'] = (opts, retryHandler) => {
        attempts += 1;
        const state: typeof current = { sent: false };
        current = state;
        options.trace?.(sendLine(request.method, options.origin + request.path, request.headers));
        const attempt = createAttempt(retryHandler, {
          maxBytes: options.maxAnswerBytes,
          deadlineMs: options.timeoutMs,
          sent: () => (state.sent = true),
          answered: (answer) => {
            state.answer = answer;
            answeredOnce = true;
          },
          ...(request.sink ? { sink: request.sink } : {}),
          ...(options.trace ? { trace: options.trace } : {}),
        });
        return dispatcher.dispatch(opts, attempt);
      };

      /** What the RetryHandler hands on: the last attempt's whole answer, or its failure. */
      const outcome: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
        },
        onResponseEnd() {
          const answer = current.answer;
          settle(() =>
            answer ? resolve({ ...answer, attempts }) : reject(transportError(new Error('the answer went missing'), label(request, attempts), false)),
          );
        },
        onResponseError(_c, error) {
          if (signal?.aborted) return interrupted();
          const failure = transportError(error, label(request, attempts), false);
          // Not repeated although the service may have received it: the caller must not assume either way.
          if (current.sent && !request.repeatable) failure.outcomeUnknown = true;
          settle(() => reject(failure));
        },
      };

      /** The RetryHandler's `retry` callback: pla's rules (retry-policy.ts) decide, with the attempt's facts. */
      const retry: RetryHandler.RetryCallback = (error, _context, callback) => {
        const answer = current.answer;
        const status = answer?.status;
        const delay = signal?.aborted
          ? undefined
          : retryDelay({
              repeatable: request.repeatable,
              sent: current.sent,
              ...(status !== undefined ? { status, retryAfter: answer?.headers['retry-after'] } : { code: codeOf(error) ?? '' }),
              attempt: attempts,
              retries: options.retries,
              local: loopback && !answeredOnce,
            });
        if (delay === undefined) {
          callback(error);
          return;
        }
        options.trace?.(retryLine(attempts, options.retries, delay, String(status ?? codeOf(error) ?? error.message)));
        const timer = setTimeout(() => {
          cancelWait = undefined;
          callback(null);
        }, delay);
        cancelWait = () => {
          clearTimeout(timer);
          cancelWait = undefined;
          callback(error);
        };
      };

      const dispatchOptions: Dispatcher.DispatchOptions = {
        origin: options.origin,
        path: request.path,
        method: request.method,
        headers: { ...request.headers, 'accept-encoding': ACCEPTED_ENCODINGS },
        body: request.body ?? null,
        // The wait for headers is undici's, so that its failure goes through the retry rules; the body's is the attempt's whole deadline.
        headersTimeout: options.timeoutMs,
        bodyTimeout: 0,
      };
      // The RetryHandler's own limits stay out of the way: the `retry` callback decides every case.
      const handler = new RetryHandler({ ...dispatchOptions, retryOptions: { throwOnError: false, retry } }, { dispatch: dispatchAttempt, handler: outcome });
      try {
        dispatchAttempt(dispatchOptions, handler);
      } catch (error) {
        settle(() => reject(transportError(error, label(request, attempts), false)));
      }
    });
  }

  return {
    send,
    label,
    close: async () => {
      if (owned) await dispatcher.close();
    },
  };
}
