/**
 * The request target (`/path?query`) split into what the pipeline reads. The
 * WHATWG URL parser normalizes paths (dot segments, percent-encoding, `\`), which
 * plain targets do not need: those are split by hand, at a fraction of its cost,
 * and anything else still goes through `URL`, so both give the same answer.
 */

/** The parts of a URL the pipeline reads; `URL` itself is one. */
export interface RequestTarget {
  pathname: string;
  /** `?` and the query, or '' when there is none (as `URL.search`). */
  search: string;
  searchParams: URLSearchParams;
}

/**
 * Targets `URL` would leave exactly as they are: a path of letters, digits, `-`, `_`,
 * `~` and `/` (no dot segments, no escapes), and a query without `#`, quotes, angle
 * brackets, backticks, spaces or control characters.
 */
// A target starting `//` would be read by URL as a host, so it takes the slow way.
const PLAIN = /^\/(?!\/)[\w~/-]*(?:\?[!$%&()*+,./:;=?@\w~[\]^{|}-]*)?$/;

/** Splits a request target as `new URL(raw, base)` would, by hand when it is plain; throws as `URL` does. */
export function parseTarget(raw: string): RequestTarget {
  if (!PLAIN.test(raw)) return new URL(raw, 'http://local');
  const mark = raw.indexOf('?');
  if (mark === -1) return { pathname: raw, search: '', searchParams: new URLSearchParams() };
  const search = mark === raw.length - 1 ? '' : raw.slice(mark);
  // URLSearchParams drops one leading `?`: the mark, so a query that itself starts with `?` keeps it.
  return { pathname: raw.slice(0, mark), search, searchParams: new URLSearchParams(search) };
}
