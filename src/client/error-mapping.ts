/**
 * Turns failed requests into the error classes of src/errors.ts (which own the exit
 * codes), each with one clear line, the facts of the failed request, and the full
 * problem body as `detail` for --verbose. What a person should do about it is the
 * CLI's to say (src/cli/error-hints.ts): the client adds no hints.
 */
import {
  ApiError,
  AuthError,
  type FailedRequest,
  InterruptedError,
  NetworkError,
  NotFoundError,
  PlaError,
  RateLimitError,
  RedirectError,
  RejectedError,
  ServerError,
} from '../errors.js';
import { ANSWER_CUT_SHORT, ANSWER_TOO_LARGE, AnswerBoundError, formatBytes, MalformedAnswerError } from './answer-bounds.js';
import { isObject } from './envelope.js';
import type { StatedFailure } from './failure-signals.js';
import { maskUrl } from '../contract/secrets.js';
import { ProxyRefusal, type ProxyChoice } from './proxy.js';
import { NETWORK_ERROR_CODES, TIMEOUT_CODES } from './retry-policy.js';

/**
 * Codes of a certificate the client does not trust (OpenSSL's verify results as
 * Node names them) or a TLS handshake that failed.
 */
const TLS_ERROR_CODES: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/** `through proxy http://p:3128 (HTTPS_PROXY)`, password masked; '' without a proxy. */
function viaProxy(request: RequestLabel): string {
  return request.proxy ? ` through proxy ${maskUrl(request.proxy.url)} (${request.proxy.source})` : '';
}

/** What the message says about the request: `GET /api/v1/…`, and how many attempts it took. */
export interface RequestLabel {
  method: string;
  path: string;
  origin: string;
  attempts: number;
  /** The environment the client serves, when it was told. */
  env?: string;
  timeoutMs: number;
  /** The proxy the request went through, when one did. */
  proxy?: ProxyChoice;
  /** The environment's CA file, when it has one. */
  caFile?: string;
}

/** The request as an error carries it (a proxy only masked). */
function facts(request: RequestLabel): FailedRequest {
  return {
    method: request.method,
    path: request.path,
    origin: request.origin,
    ...(request.env ? { env: request.env } : {}),
    ...(request.proxy ? { proxy: `${maskUrl(request.proxy.url)} (${request.proxy.source})` } : {}),
    ...(request.caFile ? { caFile: request.caFile } : {}),
  };
}

function label(request: RequestLabel): string {
  const tries = request.attempts > 1 ? `, ${request.attempts} attempts` : '';
  return `(${request.method} ${request.path}${tries})`;
}

/** The service's own words: problem+json `detail`/`title`, envelope `message`, `error`, or a short text body. */
export function serviceMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    // A proxy's HTML error page says nothing the status line does not (and its
    // first line, `<html>`, even less).
    if (/^\s*</.test(body)) return undefined;
    return body.trim().split('\n')[0]?.trim().slice(0, 200) || undefined;
  }
  if (!isObject(body)) return undefined;
  for (const key of ['detail', 'title', 'message', 'error'] as const) {
    const value = body[key];
    if (typeof value === 'string' && value) return value;
    if (isObject(value) && typeof value.message === 'string') return value.message;
  }
  return undefined;
}

/**
 * The first field problems (`errors[].path: message`), at most three, leaving out
 * those the service's message already says (many services repeat the first one).
 */
function fieldProblems(body: unknown, alreadySaid = ''): string | undefined {
  if (!isObject(body) || !Array.isArray(body.errors)) return undefined;
  const problems = body.errors
    .filter(isObject)
    .slice(0, 3)
    .map((e) => {
      const where = typeof e.path === 'string' ? e.path : typeof e.field === 'string' ? e.field : undefined;
      const what = typeof e.message === 'string' ? e.message : undefined;
      if (what && alreadySaid.includes(what)) return undefined;
      return where && what ? `${where}: ${what}` : (what ?? where);
    })
    .filter((text): text is string => Boolean(text));
  if (problems.length === 0) return undefined;
  const unshown = body.errors.length - 3;
  const more = unshown > 0 ? ` (+${unshown} more)` : '';
  return problems.join('; ') + more;
}

/**
 * The standard reason phrase of a status (`404` → `Not Found`). node:http is
 * taken only here, on the way to an error: a successful `get` never loads it,
 * which is 4 ms of its start-up (docs/startup.md).
 */
function reasonPhrase(status: number): string | undefined {
  return process.getBuiltinModule('node:http').STATUS_CODES[status];
}

/** Maps a non-2xx answer to its error class; `location` is the answer's Location header (named for a redirect). */
export function httpError(status: number, statusText: string, body: unknown, request: RequestLabel, location?: string | string[]): ApiError {
  const reason = statusText || reasonPhrase(status) || 'Error';
  // Collapsed to one line: a service message may span several.
  const serviceSaid = serviceMessage(body);
  // pla does not follow redirects (a key must not go where the service sends it): where to is said instead.
  const redirectedTo = status >= 300 && status < 400 && location !== undefined ? `redirected to ${String(location)}` : undefined;
  const said = [redirectedTo, serviceSaid, fieldProblems(body, serviceSaid)].filter(Boolean).join(' — ').replace(/\s+/g, ' ');
  const message = `${status} ${reason}${said ? `: ${said}` : ''} ${label(request)}`;
  const options = { request: facts(request) };
  if (status === 401 || status === 403) return new AuthError(message, status, body, options);
  if (status === 404) return new NotFoundError(message, status, body, options);
  if (status === 429) return new RateLimitError(message, status, body, options);
  if (status >= 500) return new ServerError(message, status, body, options);
  if (redirectedTo) return new RedirectError(message, status, body, { ...options, location: String(location) });
  return new RejectedError(message, status, body, options);
}

/** How a failure without a status says that what it names does not exist. */
const NOT_FOUND_WORDS = /\bnot found\b|\bdoes not exist\b|\bno such\b/i;

/**
 * The error for a failure the service states inside a 2xx (`{"success": false}`,
 * `{"code": 409, "msg": …}`): the class its stated status calls for, else a
 * refusal; the message says both what came and what it said.
 */
export function statedFailureError(status: number, failure: StatedFailure, body: unknown, request: RequestLabel): ApiError {
  const message = `the service answered ${status} but reported a failure${failure.status ? ` (code ${failure.status})` : ''}: ${failure.message.replace(/\s+/g, ' ')} ${label(request)}`;
  const options = { request: facts(request) };
  // Without a status, the words are all there is: "determination 7 not found" is a 404 in any form.
  const stated = failure.status ?? (NOT_FOUND_WORDS.test(failure.message) ? 404 : 400);
  if (stated === 401 || stated === 403) return new AuthError(message, stated, body, options);
  if (stated === 404) return new NotFoundError(message, stated, body, options);
  if (stated === 429) return new RateLimitError(message, stated, body, options);
  if (stated >= 500) return new ServerError(message, stated, body, options);
  return new RejectedError(message, stated, body, options);
}

/** Maps a failure to reach the service (or an abort) to its error class. */
export function transportError(error: unknown, request: RequestLabel, aborted: boolean): PlaError {
  if (aborted) return new InterruptedError(`interrupted ${label(request)}`, { cause: error });
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && TLS_ERROR_CODES.has(code)) {
    const what = code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO' ? 'TLS handshake failed' : 'certificate not trusted';
    return new NetworkError(`${what} for ${request.origin}${viaProxy(request)}: ${(error as Error).message} (${code}) ${label(request)}`, {
      cause: error,
      failure: code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO' ? { kind: 'tls-handshake' } : { kind: 'certificate' },
      request: facts(request),
    });
  }
  if (error instanceof AnswerBoundError) {
    const tooLarge = error.code === ANSWER_TOO_LARGE;
    const what = tooLarge ? `is larger than ${formatBytes(error.limit)}: stopped reading it` : `did not end within ${error.limit / 1000} s`;
    return new NetworkError(`the answer from ${request.origin} ${what} ${label(request)}`, {
      cause: error,
      timedOut: !tooLarge,
      failure: tooLarge ? { kind: 'answer-too-large', limitBytes: error.limit } : { kind: 'answer-deadline' },
      request: facts(request),
    });
  }
  if (error instanceof MalformedAnswerError) {
    return new NetworkError(`the answer from ${request.origin}${viaProxy(request)} could not be read (${error.code}): ${error.message} ${label(request)}`, {
      cause: error,
      failure: { kind: 'malformed-answer' },
      request: facts(request),
    });
  }
  if (code === ANSWER_CUT_SHORT) {
    return new NetworkError(`the answer from ${request.origin} was cut short: the connection closed before its end ${label(request)}`, {
      cause: error,
      failure: { kind: 'answer-cut-short' },
      request: facts(request),
    });
  }
  if (request.proxy && error instanceof ProxyRefusal) {
    const { status } = error;
    return new NetworkError(
      `the proxy ${maskUrl(request.proxy.url)} (${request.proxy.source}) refused to connect to ${request.origin}: ${status} ${label(request)}`,
      {
        cause: error,
        failure: { kind: 'proxy-refused', status },
        request: facts(request),
      },
    );
  }
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
    return new NetworkError(`no answer from ${request.origin} within ${request.timeoutMs / 1000} s (${code}) ${label(request)}`, {
      cause: error,
      timedOut: true,
      request: facts(request),
    });
  }
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) {
    return new NetworkError(`cannot reach ${request.origin}${viaProxy(request)} (${code}) ${label(request)}`, { cause: error, request: facts(request) });
  }
  return new PlaError(`request failed: ${(error as Error).message ?? String(error)} ${label(request)}`, { cause: error });
}
