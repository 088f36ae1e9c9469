/**
 * Boolean query parameters (`count?unread=`), read as a Spring service reads them
 * (StringToBooleanConverter): `true`, `on`, `yes`, `1` and `false`, `off`, `no`, `0`
 * in any case, surrounding blanks ignored; an empty value is "not given". Anything
 * else is a 400 naming the parameter.
 */
import { badField } from './problem.js';

const TRUE = new Set(['true', 'on', 'yes', '1']);
const FALSE = new Set(['false', 'off', 'no', '0']);

/** The flag `name` of the query, `fallback` when absent or empty; 400 for a value Spring would refuse. */
export function queryFlag(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const text = query.get(name)?.trim().toLowerCase();
  if (text === undefined || text === '') return fallback;
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw badField(name, 'must be true or false (also on/off, yes/no, 1/0)');
}
