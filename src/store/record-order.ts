import { compareIds } from '../contract/ids.js';
import { compareNumbers, isLosslessNumber, type JsonNumber } from '../json/exact-number.js';
import { jsonText } from '../json/json-text.js';
import type { SortKey, StoredRecord } from './types.js';

/** Orders two records; negative when `a` comes first. */
export type RecordComparator = (a: StoredRecord, b: StoredRecord) => number;

/**
 * A field's value on a record, reading own properties only: a record without a
 * `constructor` or `__proto__` field must not sort or match by Object.prototype's.
 * A dotted name (`owner.name`) walks into nested objects.
 */
export function fieldValue(record: StoredRecord, field: string): unknown {
  if (Object.hasOwn(record, field)) return record[field];
  return field.includes('.') ? walk(record, field.split('.')) : undefined;
}

/** `fieldValue` for one field, with its dotted path split once rather than per record (for sorts). */
function fieldReader(field: string): (record: StoredRecord) => unknown {
  if (!field.includes('.')) return (record) => (Object.hasOwn(record, field) ? record[field] : undefined);
  const parts = field.split('.');
  return (record) => (Object.hasOwn(record, field) ? record[field] : walk(record, parts));
}

function walk(record: StoredRecord, parts: readonly string[]): unknown {
  let value: unknown = record;
  for (const part of parts) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

// Stored values are never changed in place (a write swaps in a new record), so an
// object's JSON is worked out once, not at every comparison of a sort.
const jsonTexts = new WeakMap<object, string>();

function jsonOf(value: object): string {
  let text = jsonTexts.get(value);
  if (text === undefined) {
    text = jsonText(value);
    jsonTexts.set(value, text);
  }
  return text;
}

// Mixed types sort by kind first, so a sort never throws on odd data. A null value
// and a missing one are two kinds, in PostgreSQL's order: `record->'f'` is JSON
// `null` for the one and SQL NULL for the other, and ORDER BY puts NULL last
// ascending (first descending), after (before) every JSON value, `null` included.
function kindRank(value: unknown): number {
  switch (typeof value) {
    case 'boolean':
      return 0;
    case 'number':
    case 'bigint':
      return 1;
    case 'string':
      return 2;
    case 'object':
      // An exact number past a double's precision (json/exact-number.ts) is a number.
      return value === null ? 4 : isLosslessNumber(value) ? 1 : 3;
    default:
      return 5; // missing
  }
}

/**
 * Compares two field values ascending: booleans, numbers (exactly, past a double's
 * precision too), strings (code-unit order,
 * which is also the order of ISO dates), then objects by their JSON, then null, then
 * missing values (so missing first, then null, when descending, as in SQL's default).
 */
function compareValues(a: unknown, b: unknown): number {
  const rankA = kindRank(a);
  const rankB = kindRank(b);
  if (rankA !== rankB) return rankA - rankB;
  switch (rankA) {
    case 0:
      return Number(a) - Number(b);
    case 1:
      return compareNumbers(a as JsonNumber, b as JsonNumber);
    case 2:
      return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
    case 3: {
      const jsonA = jsonOf(a as object);
      const jsonB = jsonOf(b as object);
      return jsonA === jsonB ? 0 : jsonA < jsonB ? -1 : 1;
    }
    default:
      return 0;
  }
}

/** Orders by id ascending, which is creation order. */
export const byIdAscending: RecordComparator = (a, b) => compareIds(a.id, b.id);

/**
 * A comparator for sort keys. Ties are broken by id, in the direction of the first key
 * (so `createdAt,desc` lists the newest of equal timestamps first), which makes the
 * order total: a page boundary never shuffles and a record's position can be
 * binary-searched.
 */
export function comparatorFor(sort: readonly SortKey[]): RecordComparator {
  // Ids are unique, so keys after an id key can never decide anything.
  const idAt = sort.findIndex((key) => key.field === 'id');
  const keys = (idAt === -1 ? sort : sort.slice(0, idAt + 1)).map((key) => ({ ...key, read: fieldReader(key.field) }));
  const tieBreak = sort[0]?.direction === 'desc' ? -1 : 1;
  return (a, b) => {
    for (const key of keys) {
      const order = key.field === 'id' ? compareIds(a.id, b.id) : compareValues(key.read(a), key.read(b));
      if (order !== 0) return key.direction === 'desc' ? -order : order;
    }
    return tieBreak * compareIds(a.id, b.id);
  };
}

/** A stable cache key for a sort. */
export function sortSignature(sort: readonly SortKey[]): string {
  return sort.map((key) => `${key.field}:${key.direction}`).join(',');
}
