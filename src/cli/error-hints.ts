/**
 * What a person should do about a failure: the CLI's words, added where errors
 * are reported (report-error.ts). The client raises typed errors with the facts
 * (status, the failed request, whether it timed out) and no advice; errors made
 * on the CLI side may carry their own hint, which wins.
 */
import { AuthError, InvalidAnswerError, NetworkError, NotFoundError, PlaError, RateLimitError, RedirectError, RejectedError, ServerError } from '../errors.js';

/** Where the run's API key came from, when not from the config: then the config's key is not the one sent. */
export type KeyOrigin = 'flag' | 'env-var' | undefined;

/** The 401 hint: where the key that was sent came from, and how to change it. */
function keyHint(env: string, keyFrom: KeyOrigin): string {
  if (keyFrom === 'env-var')
    return `check the key: PLA_API_KEY is set and wins over the config; unset it to use the key of \`pla config set-key --env ${env}\``;
  if (keyFrom === 'flag') return 'check the key given with --api-key';
  return `check the key: \`pla config show\`, \`pla config set-key --env ${env}\``;
}

/** The hint line for `error`, if there is one to give. */
export function hintFor(error: unknown, keyFrom?: KeyOrigin): string | undefined {
  if (!(error instanceof PlaError)) return 'this looks like a bug; run again with --verbose and report it';
  if (error.hint) return error.hint;
  // Sent, maybe carried out, not repeated (creates are not, without --retry-unsafe).
  if (error.outcomeUnknown) {
    return 'the service may have carried it out: check before sending it again (--plan); --retry-unsafe repeats such calls (safe only where the service honours Idempotency-Key)';
  }
  if (error instanceof AuthError) {
    const env = error.request?.env ?? '<env>';
    return error.status === 403
      ? `the key lacks the permission for this operation: use a key that has it (\`pla config set-key --env ${env}\`)`
      : keyHint(env, keyFrom);
  }
  if (error instanceof NotFoundError) return 'check the id, and the base URL with its path prefix (`pla config show`)';
  if (error instanceof RateLimitError) return 'the service is rate limiting this key: wait, or allow more retries with --retries';
  if (error instanceof ServerError) return 'the service failed: try again later; --verbose shows its full answer';
  if (error instanceof RedirectError)
    return `pla does not follow redirects: if ${error.location} is where the service now lives, set it as the base URL (\`pla config set-url URL --env ${error.request?.env ?? '<env>'}\`)`;
  if (error instanceof RejectedError) return 'fix the request; --verbose shows the full problem';
  if (error instanceof InvalidAnswerError)
    return 'the service sent a success pla cannot read; --verbose shows its start. Check what it did (a read) before sending a write again';
  if (error instanceof NetworkError) {
    const networkHint = networkFailureHint(error);
    if (networkHint) return networkHint;
    return error.timedOut
      ? 'the service is slow or unreachable: try again, or allow more time with --timeout'
      : 'is the service up? for the local one: `pla server start`; check the base URL with `pla config show`';
  }
  return undefined;
}

/** Hints for certificate, handshake and proxy failures, and for any failure through a proxy. */
function networkFailureHint(error: NetworkError): string | undefined {
  const env = error.request?.env ?? '<env>';
  switch (error.failure?.kind) {
    case 'certificate': {
      const configured = error.request?.caFile ? ` (now ${error.request.caFile})` : '';
      return `if the service uses a private CA, trust it: \`pla config set-ca ca.pem --env ${env}\`${configured}, or NODE_EXTRA_CA_CERTS=ca.pem for every Node program`;
    }
    case 'tls-handshake':
      return 'does the service speak https on this port? try http:// in the base URL (`pla config show`); `pla doctor` checks each step';
    case 'answer-too-large':
      return 'if the answer is expected to be this large, allow it with --max-answer-size (e.g. 512MB); for lists, ask for pages (--size) instead';
    case 'answer-deadline':
      return 'the answer kept arriving past the deadline: allow more time with --timeout, or ask for less at a time (--size)';
    case 'answer-cut-short':
      return 'the service (or something between) closed the connection mid-answer: try again; for a write, check what it did (a read) before sending it again';
    case 'malformed-answer':
      return 'something on that address does not answer as an HTTP service: check the base URL and its port (`pla config show`); `pla doctor` checks each step';
    case 'proxy-refused':
      return error.failure.status === 407
        ? 'the proxy wants credentials: put them in its URL, http://user:password@proxy:port (`pla config set-proxy` or HTTPS_PROXY)'
        : 'check the proxy and the base URL; NO_PROXY lists hosts to reach directly';
    default:
      return error.request?.proxy && !error.timedOut
        ? 'is the proxy up and its URL right? `pla doctor` checks each step; NO_PROXY lists hosts to reach directly'
        : undefined;
  }
}
