/**
 * Turns failed requests into the error classes of src/errors.ts (which own the exit
 * codes), each with one clear line, a hint on what to do, and the full problem body
 * as `detail` for --verbose.
 */
import {
  ApiError,
  AuthError,
  InterruptedError,
  NetworkError,
  NotFoundError,
  PlaError,
  RateLimitError,
  RejectedError,
  ServerError,
} from '../errors.js';
import { isObject } from './envelope.js';
import { maskUrl } from '../config/mask-url.js';
import type { ProxyChoice } from './proxy.js';
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

/** The hint for a certificate the client does not trust: both ways to trust it. */
function certificateHint(request: RequestLabel): string {
  const env = request.env ?? '<env>';
  const configured = request.caFile ? ` (now ${request.caFile})` : '';
  return `if the service uses a private CA, trust it: \`pla config set-ca ca.pem --env ${env}\`${configured}, or NODE_EXTRA_CA_CERTS=ca.pem for every Node program`;
}

/** What the message says about the request: `GET /api/v1/…`, and how many attempts it took. */
export interface RequestLabel {
  method: string;
  path: string;
  origin: string;
  attempts: number;
  /** Environment name for hints (`<env>` when unknown). */
  env?: string;
  timeoutMs: number;
  /** The proxy the request went through, when one did. */
  proxy?: ProxyChoice;
  /** The environment's CA file, when it has one. */
  caFile?: string;
}

function label(request: RequestLabel): string {
  const tries = request.attempts > 1 ? `, ${request.attempts} attempts` : '';
  return `(${request.method} ${request.path}${tries})`;
}

/** The service's own words: problem+json `detail`/`title`, envelope `message`, `error`, or a short text body. */
function serviceMessage(body: unknown): string | undefined {
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

/** Maps a non-2xx answer to its error class. */
export function httpError(status: number, statusText: string, body: unknown, request: RequestLabel): ApiError {
  // node:http is looked up only here, on a failure: loading it costs a `get` ~3 ms at start-up.
  const reason = statusText || process.getBuiltinModule('node:http').STATUS_CODES[status] || 'Error';
  // Collapsed to one line: a service message may span several.
  const serviceSaid = serviceMessage(body);
  const said = [serviceSaid, fieldProblems(body, serviceSaid)].filter(Boolean).join(' — ').replace(/\s+/g, ' ');
  const message = `${status} ${reason}${said ? `: ${said}` : ''} ${label(request)}`;
  const env = request.env ?? '<env>';
  if (status === 401) return new AuthError(message, status, body, { hint: `check the key: \`pla config show\`, \`pla config set-key --env ${env}\`` });
  if (status === 403) return new AuthError(message, status, body, { hint: `the key lacks the permission for this operation: use a key that has it (\`pla config set-key --env ${env}\`)` });
  if (status === 404) return new NotFoundError(message, status, body, { hint: 'check the id, and the base URL with its path prefix (`pla config show`)' });
  if (status === 429) return new RateLimitError(message, status, body, { hint: 'the service is rate limiting this key: wait, or allow more retries with --retries' });
  if (status >= 500) return new ServerError(message, status, body, { hint: 'the service failed: try again later; --verbose shows its full answer' });
  return new RejectedError(message, status, body, { hint: 'fix the request; --verbose shows the full problem' });
}

/** Maps a failure to reach the service (or an abort) to its error class. */
export function transportError(error: unknown, request: RequestLabel, aborted: boolean): PlaError {
  if (aborted) return new InterruptedError(`interrupted ${label(request)}`, { cause: error });
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && TLS_ERROR_CODES.has(code)) {
    const what = code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO' ? 'TLS handshake failed' : 'certificate not trusted';
    return new NetworkError(`${what} for ${request.origin}${viaProxy(request)}: ${(error as Error).message} (${code}) ${label(request)}`, {
      cause: error,
      hint: code === 'ERR_SSL_WRONG_VERSION_NUMBER' ? 'does the service speak https? try http:// in the base URL (`pla config show`)' : certificateHint(request),
    });
  }
  const proxyStatus = /^Proxy response \((\d+)\)/.exec((error as Error).message ?? '');
  if (request.proxy && proxyStatus) {
    const status = Number(proxyStatus[1]);
    return new NetworkError(`the proxy ${maskUrl(request.proxy.url)} (${request.proxy.source}) refused to connect to ${request.origin}: ${status} ${label(request)}`, {
      cause: error,
      hint:
        status === 407
          ? 'the proxy wants credentials: put them in its URL, http://user:password@proxy:port (`pla config set-proxy` or HTTPS_PROXY)'
          : 'check the proxy and the base URL; NO_PROXY lists hosts to reach directly',
    });
  }
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
    return new NetworkError(`no answer from ${request.origin} within ${request.timeoutMs / 1000} s (${code}) ${label(request)}`, {
      cause: error,
      hint: 'the service is slow or unreachable: try again, or allow more time with --timeout',
    });
  }
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) {
    return new NetworkError(`cannot reach ${request.origin}${viaProxy(request)} (${code}) ${label(request)}`, {
      cause: error,
      hint: request.proxy
        ? 'is the proxy up and its URL right? `pla doctor` checks each step; NO_PROXY lists hosts to reach directly'
        : 'is the service up? for the local one: `pla server start`; check the base URL with `pla config show`',
    });
  }
  return new PlaError(`request failed: ${(error as Error).message ?? String(error)} ${label(request)}`, { cause: error });
}
