/**
 * How an API key is shown once it exists: `••••` and its last four characters,
 * never more. The CLI (config show, traces, error messages) and the server (key
 * listings, request log) show keys only through these functions.
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
