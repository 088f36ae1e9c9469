/**
 * The --verbose request trace: one line per attempt, sent by wrapping the
 * dispatcher's `dispatch` under undici's RetryHandler, so retried attempts show too.
 * The key appears only masked.
 */
import type { Dispatcher } from 'undici';
import { maskKey } from '../contract/secrets.js';

type Dispatch = Dispatcher['dispatch'];

/** Wraps `dispatch` so that every attempt writes `→ METHOD url (x-api-key: ••••abcd)` and `← status reason N ms`. */
export function tracedDispatch(dispatch: Dispatch, trace: (line: string) => void): Dispatch {
  return (opts, handler) => {
    const started = performance.now();
    const elapsed = () => `${Math.round(performance.now() - started)} ms`;
    const headers = opts.headers as Record<string, string> | undefined;
    const key = headers?.['x-api-key'];
    trace(`→ ${opts.method} ${String(opts.origin ?? '')}${opts.path} (x-api-key: ${key ? maskKey(key) : 'none'})`);
    return dispatch(opts, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, status, upgradeHeaders, socket) => handler.onRequestUpgrade?.(controller, status, upgradeHeaders, socket),
      onResponseStart(controller, status, responseHeaders, statusMessage) {
        trace(`← ${status} ${statusMessage ?? ''} ${elapsed()}`.replace(/ {2,}/g, ' '));
        handler.onResponseStart?.(controller, status, responseHeaders, statusMessage);
      },
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError(controller, error) {
        const code = (error as { code?: unknown }).code;
        trace(`✗ ${typeof code === 'string' ? code : error.message} ${elapsed()}`);
        handler.onResponseError?.(controller, error);
      },
    });
  };
}

/** A retry line: `↻ retry 1/3 in 0.8 s after 503`. */
export function retryLine(attempt: number, retries: number, delayMs: number, cause: string): string {
  return `↻ retry ${attempt}/${retries} in ${(delayMs / 1000).toFixed(1)} s after ${cause}`;
}
