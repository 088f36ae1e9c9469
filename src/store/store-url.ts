/**
 * Which store URLs the server takes. Free of imports: the CLI's config checks a
 * URL with the same rule before it stores one, without loading any store.
 */

/** True for a URL the PostgreSQL store takes. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * How a refused store URL is shown: masked when it parses, else not at all (where
 * the password of a URL that does not parse ends cannot be known).
 */
export function refusedStoreUrl(url: string, mask: (url: string) => string): string {
  return URL.canParse(url) ? mask(url) : '(not shown: it may hold a password)';
}

/**
 * What is wrong with a store URL, or undefined when the PostgreSQL store can
 * take it. The answer never holds the URL (see refusedStoreUrl).
 */
export function storeUrlProblem(url: string): string | undefined {
  if (!isPostgresUrl(url)) return 'only postgres:// (or postgresql://) URLs name a store';
  if (!URL.canParse(url)) return 'it does not parse as a URL; a character such as # / ? @ : in the user name or password must be percent-encoded (# as %23)';
  return undefined;
}
