/**
 * Sends one logical request through undici: a RetryHandler (undici's own retry
 * support) around the dispatcher, with our retry rules as its `retry` function,
 * per-attempt timeouts, abort, and the trace. Returns any answer the service gave
 * (error statuses included, with their bodies: the retry handler runs with
 * `throwOnError: false` so the final answer's body reaches us); throws only when
 * there was no answer.
 */
import { type Dispatcher, RetryHandler } from 'undici';
import { maskUrl } from '../contract/secrets.js';
import { createAnswerBounds } from './answer-bounds.js';
import { createDispatcher } from './dispatcher.js';
import { transportError, type RequestLabel } from './error-mapping.js';
import type { ProxyChoice } from './proxy.js';
import { retryDelay } from './retry-policy.js';
import { retryLine, tracedDispatch } from './trace.js';

export interface OutgoingRequest {
  method: string;
  /** Path and query, base URL prefix included. */
  path: string;
  headers: Record<string, string>;
  /** Strings and buffers only: the retry handler replays them, which a consumed stream cannot be. */
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Whether the request may be repeated once the service may have received it (see retry-policy). */
  repeatable: boolean;
  /**
   * Asked once the answer's status is known: a sink that takes the body chunk by chunk
   * instead of the transport collecting it (list pages: src/client/streamed-body.ts),
   * `body` then empty; undefined collects it. Its `write` must not throw.
   */
  sink?: (status: number) => BodySink | undefined;
}

/** Where an answer's body goes chunk by chunk (see `OutgoingRequest.sink`). */
export interface BodySink {
  write(chunk: Buffer): void;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Attempts it took, for messages. */
  attempts: number;
}

export interface TransportOptions {
  origin: string;
  retries: number;
  /** Deadline of each attempt, headers and whole body (src/client/answer-bounds.ts). */
  timeoutMs: number;
  /** Most bytes an answer's body may have. */
  maxAnswerBytes: number;
  dispatcher?: unknown;
  /** The proxy to send through (ignored with an injected dispatcher). */
  proxy?: ProxyChoice;
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

/**
 * One attempt's handler, noting when the request is handed to a connection
 * (`onRequestStart`: connected, about to be written). A failure before that
 * (refused, DNS, connect timeout) cannot have reached the service; one after
 * may have.
 */
function noteStart(handler: Dispatcher.DispatchHandler, started: () => void): Dispatcher.DispatchHandler {
  return {
    onRequestStart(controller, context) {
      started();
      handler.onRequestStart?.(controller, context);
    },
    onRequestUpgrade: (controller, status, headers, socket) => handler.onRequestUpgrade?.(controller, status, headers, socket),
    onResponseStart: (controller, status, headers, message) => handler.onResponseStart?.(controller, status, headers, message),
    onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
    onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
    onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
  };
}

function isDispatcher(value: unknown): value is Dispatcher {
  return typeof (value as Dispatcher | undefined)?.dispatch === 'function';
}

/** Creates the transport; an injected dispatcher is used as is and left open on close (its owner closes it). */
export function createTransport(options: TransportOptions): Transport {
  if (options.dispatcher !== undefined && !isDispatcher(options.dispatcher)) {
    throw new TypeError('options.dispatcher must be an undici Dispatcher');
  }
  const owned = options.dispatcher === undefined;
  const dispatcher: Dispatcher = isDispatcher(options.dispatcher)
    ? options.dispatcher
    : createDispatcher({
        timeoutMs: options.timeoutMs,
        ...(options.proxy ? { proxy: options.proxy } : {}),
        ...(options.ca !== undefined ? { ca: options.ca } : {}),
      });
  if (owned && options.proxy) options.trace?.(`proxy ${maskUrl(options.proxy.url)} (${options.proxy.source})`);
  /** `dispatch` for one request, calling `sent` when an attempt's request is handed to a connection. */
  const dispatchNoting = (sent: () => void): Dispatcher['dispatch'] => {
    const plain: Dispatcher['dispatch'] = (opts, handler) => dispatcher.dispatch(opts, noteStart(handler, sent));
    return options.trace ? tracedDispatch(plain, options.trace) : plain;
  };

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
      let attempts = 1;
      /** Whether the current attempt's request was handed to a connection (reset by each attempt). */
      let sent = false;
      const bounds = createAnswerBounds({ maxBytes: options.maxAnswerBytes, deadlineMs: options.timeoutMs });
      const dispatch = bounds.attempt(dispatchNoting(() => (sent = true)));
      let responseStarted = false;
      let controller: Dispatcher.DispatchController | undefined;
      let status = 0;
      let statusText = '';
      let headers: RawResponse['headers'] = {};
      const chunks: Buffer[] = [];
      let sink: BodySink | undefined;
      let cancelWait: (() => void) | undefined;

      const onAbort = () => {
        cancelWait?.();
        controller?.abort(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const settle = (outcome: () => void) => {
        bounds.done();
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      if (signal?.aborted) {
        reject(transportError(signal.reason, label(request, 0), true));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });

      const collector: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
        },
        onResponseStart(c, code, responseHeaders, message) {
          responseStarted = true;
          bounds.started(c, responseHeaders);
          status = code;
          statusText = message ?? '';
          headers = responseHeaders;
          sink = request.sink?.(code);
        },
        onResponseData(c, chunk) {
          if (!bounds.data(c, chunk)) return;
          if (sink) sink.write(chunk);
          else chunks.push(chunk);
        },
        onResponseEnd() {
          settle(() =>
            signal?.aborted
              ? reject(transportError(signal.reason, label(request, attempts), true))
              : resolve({ status, statusText, headers, body: Buffer.concat(chunks), attempts }),
          );
        },
        onResponseError(_c, error) {
          const failure = transportError(error, label(request, attempts), signal?.aborted ?? false);
          // Not repeated although the service may have received it: the caller must not assume either way.
          if (sent && !request.repeatable && !signal?.aborted) failure.outcomeUnknown = true;
          settle(() => reject(failure));
        },
      };

      const retry: RetryHandler.RetryCallback = (error, { state }, callback) => {
        const failure = error as Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[] | undefined> };
        const status = failure.code === 'UND_ERR_REQ_RETRY' ? failure.statusCode : undefined;
        // Never retry once a body has started to arrive: undici would try to resume it with a Range request.
        const delay =
          signal?.aborted || responseStarted
            ? undefined
            : retryDelay({
                repeatable: request.repeatable,
                sent,
                ...(status !== undefined ? { status } : { code: failure.code ?? '' }),
                attempt: state.counter,
                retries: options.retries,
                retryAfter: failure.headers?.['retry-after'],
              });
        if (delay === undefined) {
          callback(error);
          return;
        }
        options.trace?.(retryLine(state.counter, options.retries, delay, String(status ?? failure.code)));
        const timer = setTimeout(() => {
          cancelWait = undefined;
          attempts = state.counter + 1;
          sent = false;
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
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body ?? null,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      };
      const handler = new RetryHandler({ ...dispatchOptions, retryOptions: { throwOnError: false, retry } }, { dispatch, handler: collector });
      try {
        dispatch(dispatchOptions, handler);
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
