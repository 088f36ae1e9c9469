/**
 * Masks the password of a URL for display (`http://ana:••••@proxy:3128`): the user
 * name stays, so a person can tell which account is used; the password never shows.
 * Kept free of imports, like the key masking in src/contract/secrets.ts.
 */
export function maskUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^/]*@/i, '$1:••••@');
}

/** The URL without its password (`http://ana@proxy:3128`), for exports that leave secrets out. */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^/]*@/i, '$1@');
}

/** True when the URL carries a password. */
export function hasPassword(url: string): boolean {
  return withoutPassword(url) !== url;
}
