/**
 * Caps on how much work one request may ask for, so that no single request can
 * freeze the server for everyone else (issue 9: 100,000 filter values took 28 s,
 * 1,500 sort keys 20 s). Past a cap the request is a 400 naming the limit.
 */
import { HttpProblem } from './problem.js';

/** Query parameters one request may carry. */
export const MAX_QUERY_PARAMS = 50;
/** `sort=` keys one paged request may carry. */
export const MAX_SORT_KEYS = 10;
/** Fields plus "any of" values one task search filter may hold. */
export const MAX_FILTER_VALUES = 1000;

/** 400 naming the limit `what` went past. */
export function overLimit(path: string, what: string, limit: number, got: number): HttpProblem {
  const message = `at most ${limit} ${what} per request (got ${got})`;
  return new HttpProblem(400, `${path}: ${message}`, { slug: 'limit-exceeded', errors: [{ path, message }] });
}

/**
 * 413 naming the cap on the items of one bulk request (`--max-bulk-items`), answered
 * once the body is parsed and before any item is checked or stored.
 */
export function tooManyItems(limit: number, got: number): HttpProblem {
  const message = `at most ${limit} items per bulk request (got ${got}); send them in batches of at most ${limit}`;
  return new HttpProblem(413, `body: ${message}`, { slug: 'too-many-items', errors: [{ path: 'body', message }] });
}
