/**
 * A request target as the request log shows it: the path, and the query with every
 * parameter that may carry an API key (`?api_key=…`) masked as the header is.
 */
import { maskKey } from '../../contract/secrets.js';

/** Names of query parameters that may carry an API key, as a URL parser reads them. */
const KEY_NAME = /^(?:api[_-]?key|x-api-key|key)$/i;

/** A query parameter as sent: its separator, name and value. */
const QUERY_PARAM = /([?&])([^=&#]*)=([^&#]*)/g;

/**
 * Whether a query may carry a key at all: each key name ends `key=` as sent, unless
 * some of it is percent-encoded (`?%6Bey=…` is `key` to every URL parser).
 */
const MAY_CARRY_KEY = /key=|%/i;

/** A query's name or value as a URL parser reads it (`+` a space, percent-escapes decoded); as sent when the encoding is broken. */
function queryText(sent: string): string {
  try {
    return decodeURIComponent(sent.replace(/\+/g, ' '));
  } catch {
    return sent;
  }
}

/** The query with every key-carrying parameter's value masked (`••••abcd`). */
export function maskKeysInQuery(search: string): string {
  // A page's `?page=2500&size=20` has nothing to mask: one test, not a replace.
  if (!search || !MAY_CARRY_KEY.test(search)) return search;
  return search.replace(QUERY_PARAM, (param, mark: string, name: string, value: string) =>
    KEY_NAME.test(queryText(name)) ? `${mark}${name}=${maskKey(queryText(value))}` : param,
  );
}

/** A request target as the log shows it, its query's keys masked; for a target no URL parser reads, so split by hand. */
export function maskKeysInTarget(raw: string): string {
  const mark = raw.indexOf('?');
  return mark === -1 ? raw : raw.slice(0, mark) + maskKeysInQuery(raw.slice(mark));
}
