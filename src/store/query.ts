/**
 * Declarative conditions evaluated in JavaScript, for the file store. The
 * PostgreSQL backend turns the same conditions into SQL (`postgres/sql.ts`); both
 * follow the rules documented on `Condition`.
 */
import { isDeepStrictEqual } from 'node:util';
import { compareNumbers, isJsonNumber } from '../json/exact-number.js';
import { fieldValue } from './record-order.js';
import type { Condition, StoredRecord } from './types.js';

/** `value` against a bound of its own kind (numbers with numbers, exactly; strings with strings): negative when below. */
function against(value: unknown, bound: unknown): number | undefined {
  if (isJsonNumber(value)) return isJsonNumber(bound) ? compareNumbers(value, bound) : undefined;
  if (typeof value !== 'string' || typeof bound !== 'string') return undefined;
  return value < bound ? -1 : value > bound ? 1 : 0;
}

function inRange(value: unknown, range: { from?: unknown; to?: unknown; before?: unknown }): boolean {
  if (!isJsonNumber(value) && typeof value !== 'string') return false;
  const holds = (bound: unknown, test: (order: number) => boolean) => {
    if (bound === undefined) return true;
    const order = against(value, bound);
    return order !== undefined && test(order);
  };
  return holds(range.from, (o) => o >= 0) && holds(range.to, (o) => o <= 0) && holds(range.before, (o) => o < 0);
}

/**
 * The primitive values of an `anyOf` list as a Set, built once per list: a search
 * may name a thousand values, and testing each record against each value one by one
 * is what froze the server (issue 9). Lists holding objects keep the deep compare.
 */
const primitiveSets = new WeakMap<readonly unknown[], Set<unknown> | null>();

function isAnyOf(value: unknown, values: readonly unknown[]): boolean {
  let set = primitiveSets.get(values);
  if (set === undefined) {
    set = values.every((one) => one === null || typeof one !== 'object') ? new Set(values) : null;
    primitiveSets.set(values, set);
  }
  if (set !== null) return (value === null || typeof value !== 'object') && set.has(value);
  return values.some((one) => isDeepStrictEqual(value, one));
}

/** Whether one record meets one condition. */
export function meets(record: StoredRecord, condition: Condition): boolean {
  const value = fieldValue(record, condition.field);
  if ('equals' in condition) return value !== undefined && isDeepStrictEqual(value, condition.equals);
  if ('notEquals' in condition) return value === undefined || !isDeepStrictEqual(value, condition.notEquals);
  if ('anyOf' in condition) return value !== undefined && isAnyOf(value, condition.anyOf);
  if ('equalsIgnoreCase' in condition) return typeof value === 'string' && value.toLowerCase() === condition.equalsIgnoreCase.toLowerCase();
  return inRange(value, condition.range);
}

/**
 * A test on a record's JSON text (as `JSON.stringify` writes it, which is how the
 * store keeps records) that every record meeting `where` passes: a string it must
 * equal, or one of the strings of a list, appears in its text as JSON. Undefined
 * when no condition gives one. A record that passes may still not match: the
 * predicate decides. Testing the text first spares a scan parsing each record (a
 * code held by one record in a hundred: 1,000,000 parsed before, about 10,000 now).
 */
export function textTestOf(where: readonly Condition[]): ((text: string) => boolean) | undefined {
  const needles: string[][] = [];
  for (const condition of where) {
    if ('equals' in condition && typeof condition.equals === 'string') needles.push([JSON.stringify(condition.equals)]);
    else if ('anyOf' in condition && condition.anyOf.length > 0 && condition.anyOf.every((value) => typeof value === 'string'))
      needles.push(condition.anyOf.map((value) => JSON.stringify(value)));
  }
  if (needles.length === 0) return undefined;
  return (text) => needles.every((any) => any.some((needle) => text.includes(needle)));
}

/** A predicate for conditions that must all hold; undefined when there are none. */
export function predicateOf(where: readonly Condition[]): ((record: StoredRecord) => boolean) | undefined {
  if (where.length === 0) return undefined;
  return (record) => where.every((condition) => meets(record, condition));
}
