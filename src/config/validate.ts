/**
 * Checks shared by the config store (before saving) and connection resolution
 * (before using a flag or env var): environment names and base URLs.
 */
import { UsageError } from '../errors.js';
import { ENV_NAME, type EnvironmentConfig } from './types.js';
import { LOCAL_BASE_URL } from '../server/options.js';
import { maskUrl } from '../contract/secrets.js';
import { refusedStoreUrl, storeUrlProblem } from '../store/store-url.js';

/**
 * The stored environment `env`: an own entry of the file's environments, never
 * something Object.prototype answers for a name (`-e constructor`). Names are data.
 */
export function storedEnvironment(environments: Readonly<Record<string, EnvironmentConfig>>, env: string): EnvironmentConfig | undefined {
  return Object.hasOwn(environments, env) ? environments[env] : undefined;
}

/** Returns the name when valid; throws a UsageError otherwise. */
export function checkEnvName(env: string): string {
  if (!ENV_NAME.test(env)) {
    throw new UsageError(`invalid environment name "${env}"`, {
      hint: 'names start with a lowercase letter and use only a-z, 0-9 and "-"',
    });
  }
  return env;
}

/** Returns the URL without trailing slashes when it is an http(s) URL without credentials; throws a UsageError otherwise. */
export function checkBaseUrl(url: string, env?: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`invalid base URL "${url}"${env ? ` for environment ${env}` : ''}`, {
      hint: `give a full URL, e.g. https://pla.example.com or ${LOCAL_BASE_URL}`,
    });
  }
  // Checked first, and never echoed: a password in the URL would be printed by
  // `config show` and every message naming the URL, and the client does not send it.
  if (parsed.username || parsed.password) {
    throw new UsageError(`invalid base URL for ${parsed.host}${env ? ` (environment ${env})` : ''}: it may not carry a user name or password`, {
      hint: `the service takes an API key: \`pla config set-key${env ? ` --env ${env}` : ''}\``,
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`invalid base URL "${url}": only http and https are supported`);
  }
  if (parsed.search || parsed.hash) {
    throw new UsageError(`invalid base URL "${url}": it may carry a path prefix but no query or fragment`);
  }
  return url.replace(/\/+$/, '');
}

/**
 * Returns the trimmed key when usable; throws a UsageError on an empty key or one
 * with whitespace, control or non-ASCII characters inside: such a key cannot go in
 * an HTTP header, so storing it would break every later command. The key itself is
 * never echoed.
 */
export function checkApiKey(key: string): string {
  const trimmed = key.trim();
  if (!trimmed) throw new UsageError('invalid API key: it is empty');
  const bad = [...trimmed].findIndex((char) => char < '!' || char > '~');
  if (bad !== -1) {
    throw new UsageError(`invalid API key: character ${bad + 1} is ${describeChar(trimmed[bad] ?? '')}; a key is printable ASCII without spaces`, {
      hint: 'copy the key again; a terminal or editor may have added invisible characters',
    });
  }
  return trimmed;
}

function describeChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (/\s/.test(char)) return `whitespace (${hex})`;
  return code < 0x20 || code === 0x7f ? `a control character (${hex})` : `not ASCII (${hex})`;
}

/**
 * Returns a proxy URL when usable: http or https, a host, user name and password
 * allowed (they are sent as Proxy-Authorization and only ever shown masked).
 */
export function checkProxyUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError('invalid proxy URL', { hint: 'give a full URL, e.g. http://proxy.corp.example:3128 or http://user:password@proxy.corp.example:3128' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`invalid proxy URL: only http and https proxies are supported, not ${parsed.protocol.replace(/:$/, '')}`);
  }
  if (!parsed.hostname) throw new UsageError('invalid proxy URL: it has no host');
  return url;
}

/**
 * Returns a PostgreSQL store URL when usable: `postgres://` or `postgresql://`,
 * parseable. A password is allowed (PostgreSQL needs one more often than not) and
 * only ever shown masked; a URL that is refused is not shown at all (where the
 * password of an unparseable URL ends cannot be known).
 */
export function checkStoreUrl(url: string): string {
  const problem = storeUrlProblem(url);
  if (problem !== undefined) {
    throw new UsageError(`invalid store URL ${refusedStoreUrl(url, maskUrl)}: ${problem}`, {
      hint: 'e.g. postgres://user:password@db.internal:5432/pla; without a store URL the server keeps its data in the data folder',
    });
  }
  return url;
}
