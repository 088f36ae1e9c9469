/**
 * The hint of a connection refused on this machine: nothing listens on the
 * environment's port (a server started with `--port 0` listens elsewhere, and
 * feeds an environment of its own), so the hint names the local servers pla
 * knows, each with the `-e` that reaches it, instead of "is the service up?".
 */
import { isLoopbackOrigin } from '../client/retry-policy.js';
import type { ConfigStore } from '../config/types.js';
import { NetworkError } from '../errors.js';

/** The failure's own error code (`ECONNREFUSED`), from it or the error it wraps. */
function codeOf(error: NetworkError): string | undefined {
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` is a connection refused by this machine, with no hint of its own yet. */
export function refusedLocally(error: unknown): error is NetworkError {
  return error instanceof NetworkError && !error.hint && codeOf(error) === 'ECONNREFUSED' && isLoopbackOrigin(error.request?.origin ?? '');
}

/** Gives `error` (refused locally) the hint naming the environments local servers feed, other than the one refused. */
export function nameLocalServers(error: NetworkError, config: ConfigStore): void {
  const refused = error.request?.env;
  const known = Object.entries(config.list()).filter(([env, stored]) => env !== refused && stored.localData !== undefined && stored.baseUrl);
  const start = 'start one with `pla server start`';
  if (known.length === 0) {
    error.hint = `no server listens there: ${start} (or \`pla server start --detach\` to leave it running)`;
    return;
  }
  const listed = known.map(([env, stored]) => `-e ${env} (${stored.baseUrl ?? ''})`).join(', ');
  error.hint = `no server listens there; the local servers pla knows: ${listed}; \`pla config use ENV\` makes one the default, or ${start}`;
}
