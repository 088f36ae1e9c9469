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
 * A URL's `scheme://user:password@` prefix, split as WHATWG URL (and so the client's
 * proxy tunnel and pg) split it: the user name runs to the first `:` and may hold a raw `@`
 * (`admin@server`, Azure style); the password runs to the last `@` before the
 * path, query or fragment, so a raw `@` in it is masked too.
 */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:/?#]*):[^/?#]*@/i;

/**
 * Query parameters that carry a secret: node-postgres takes the password (and a
 * client key's passphrase) from the query as well as from the user info
 * (`postgres://pla@db/pla?password=…`).
 */
const SECRET_PARAMETERS = new Set(['password', 'sslpassword']);

/** Applies `replace` to each `name=value` of the query whose name is a secret one; the rest stays byte for byte. */
function editSecretParameters(url: string, replace: (pair: string, name: string) => string | undefined): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const hash = url.indexOf('#', start);
  const end = hash < 0 ? url.length : hash;
  const pairs = url.slice(start + 1, end).split('&');
  const kept = pairs.flatMap((pair) => {
    const name = pair.split('=', 1)[0] ?? '';
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // A malformed escape: compare the name as written.
    }
    if (!SECRET_PARAMETERS.has(decoded.toLowerCase())) return [pair];
    const replaced = replace(pair, name);
    return replaced === undefined ? [] : [replaced];
  });
  const query = kept.length > 0 ? `?${kept.join('&')}` : '';
  return url.slice(0, start) + query + url.slice(end);
}

/**
 * Masks the password of a URL for display (`http://ana:••••@proxy:3128`,
 * `postgres://pla:••••@db/pla`, `…/pla?password=••••`): the user name stays, so a
 * person can tell which account is used; the password never shows. A URL that
 * does not parse (a raw `#`, `/` or `?` in its password) is masked from its
 * scheme to its last `@`, since where its password ends cannot be known.
 */
export function maskUrl(url: string): string {
  const masked = editSecretParameters(url, (_pair, name) => `${name}=${MASK}`);
  if (URL.canParse(masked)) return masked.replace(URL_PASSWORD, `$1:${MASK}@`);
  return masked.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/i, `$1${MASK}@`);
}

/**
 * The URL without its password, in the user info or the query
 * (`http://ana@proxy:3128`), for exports that leave secrets out. Only URLs
 * that parse are ever stored, so this needs no rule for the others.
 */
export function withoutPassword(url: string): string {
  return editSecretParameters(url, () => undefined).replace(URL_PASSWORD, '$1@');
}

/** True when the URL carries a password, in the user info or the query. */
export function hasPassword(url: string): boolean {
  return withoutPassword(url) !== url;
}

/** A key as the local server mints it (`pla_<env>_<32 characters>`), wherever it appears in a text. */
const PLA_KEY = /pla_[A-Za-z0-9]*_[A-Za-z0-9_-]{32}/g;

/** JSON string fields whose name says they hold a secret: `"apiKey": "…"`, `"password": "…"`, … */
const SECRET_FIELD = /("(?:[\w-]*api[-_]?key|x-api-key|secret|[\w-]*password|passwd|[\w-]*token|authorization)"\s*:\s*")((?:[^"\\]|\\.)*)(")/gi;

/**
 * A JSON text (possibly cut short) for a log: every value of a secret-named
 * string field and every pla key masked, and each of `secrets` (the key that came
 * with the request) wherever it appears.
 */
export function maskSecretsInText(text: string, secrets: readonly string[] = []): string {
  return redactSecrets(text, secrets)
    .replace(SECRET_FIELD, (_match, open: string, value: string, close: string) => `${open}${maskKey(value)}${close}`)
    .replace(PLA_KEY, (key) => maskKey(key));
}
