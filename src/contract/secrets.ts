/**
 * How secrets are shown, in one place for every room: an API key once it exists
 * as `••••` and its last four characters, never more; a URL (proxy, store) with
 * its password masked. The CLI (config show, traces, error messages, doctor) and
 * the server (key listings, request log, store lines, health) show them only
 * through these functions. Free of imports, so any room may use it.
 */

const MASK = '••••';

/** The shown form of a key whose last four characters are `last4` (the server keeps only those). */
export function maskFromLast4(last4: string): string {
  return `${MASK}${last4}`;
}

/**
 * Masks a whole key: `••••abcd`. Keys shorter than 12 characters are masked
 * whole, since their last 4 would give away too much.
 */
export function maskKey(key: string): string {
  return key.length >= 12 ? maskFromLast4(key.slice(-4)) : MASK;
}

/** `text` with every occurrence of each secret (4 characters or more) replaced by its mask. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(maskKey(secret));
  return out;
}

/**
 * A URL's `scheme://user:password@` prefix, split as WHATWG URL (and so undici and
 * pg) split it: the user name runs to the first `:` and may hold a raw `@`
 * (`admin@server`, Azure style); the password runs to the last `@` before the
 * path, query or fragment, so a raw `@` in it is masked too.
 */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:/?#]*):[^/?#]*@/i;

/**
 * Masks the password of a URL for display (`http://ana:••••@proxy:3128`,
 * `postgres://pla:••••@db/pla`): the user name stays, so a person can tell which
 * account is used; the password never shows.
 */
export function maskUrl(url: string): string {
  return url.replace(URL_PASSWORD, `$1:${MASK}@`);
}

/** The URL without its password (`http://ana@proxy:3128`), for exports that leave secrets out. */
export function withoutPassword(url: string): string {
  return url.replace(URL_PASSWORD, '$1@');
}

/** True when the URL carries a password. */
export function hasPassword(url: string): boolean {
  return withoutPassword(url) !== url;
}
