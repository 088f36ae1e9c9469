/**
 * The inline schema of the metadata endpoints. The spec does not show it; the
 * local server describes the resource as its stored records show it: a JSON
 * Schema object whose `properties` list every field seen, the JSON types seen for
 * it and in how many records (`x-seenIn`), plus `x-records` and `x-serverOwned`; a
 * string field whose every value is an ISO 8601 stamp is `format: date-time`.
 */

import { isLosslessNumber } from '../json/exact-number.js';

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** The JSON type of a stored value; numbers past a double's precision (json/exact-number.ts) are numbers. */
function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'bigint') return 'integer';
  if (isLosslessNumber(value)) return 'number';
  if (typeof value === 'object') return 'object';
  return typeof value as JsonType;
}

/** An ISO 8601 date-time as the server stamps them. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The JSON Schema of a resource's metadata endpoint, described from its stored records. */
export function describeRecords(title: string, records: Iterable<Record<string, unknown>>, serverOwned: readonly string[]) {
  const fields = new Map<string, { types: Set<JsonType>; seenIn: number; stamps: boolean }>();
  let count = 0;
  for (const record of records) {
    count += 1;
    for (const [name, value] of Object.entries(record)) {
      const field = fields.get(name) ?? { types: new Set<JsonType>(), seenIn: 0, stamps: true };
      field.types.add(jsonType(value));
      field.seenIn += 1;
      if (typeof value === 'string' && !DATE_TIME.test(value)) field.stamps = false;
      fields.set(name, field);
    }
  }
  for (const owned of serverOwned)
    if (!fields.has(owned)) fields.set(owned, { types: new Set([owned === 'id' ? 'integer' : 'string']), seenIn: 0, stamps: owned !== 'id' });
  const properties = Object.fromEntries(
    [...fields].map(([name, field]) => {
      const types = [...field.types];
      const format = field.stamps && field.types.has('string') ? { format: 'date-time' } : {};
      return [name, { type: types.length === 1 ? types[0] : types, ...format, 'x-seenIn': field.seenIn }];
    }),
  );
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title,
    type: 'object',
    additionalProperties: true,
    required: [...serverOwned],
    properties,
    'x-records': count,
    'x-serverOwned': [...serverOwned],
  };
}
