import type { Row } from './types.js';
import { isLosslessNumber } from '../../json/exact-number.js';
import { jsonText } from '../../json/json-text.js';

/**
 * Reads a dotted path (`page.size`) out of a record. Own properties only: a field
 * named `constructor` or `toString` is missing, not a function off the prototype.
 */
export function fieldValue(row: Row, field: string): unknown {
  if (Object.hasOwn(row, field)) return row[field];
  let value: unknown = row;
  for (const part of field.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Row)[part];
  }
  return value;
}

/** True when `row` has the (dotted) field, even holding null. */
function hasField(row: Row, field: string): boolean {
  if (Object.hasOwn(row, field)) return true;
  let value: unknown = row;
  for (const part of field.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return false;
    value = (value as Row)[part];
  }
  return true;
}

/** The `fields` no row of `rows` has (none can be said of no rows). */
export function unknownFields(fields: readonly string[] | undefined, rows: readonly Row[]): string[] {
  if (!fields || rows.length === 0) return [];
  return fields.filter((field) => !rows.some((row) => hasField(row, field)));
}

/** Keeps only the named fields, in their order; without fields the row is unchanged. */
export function pickFields(row: Row, fields: string[] | undefined): Row {
  if (!fields || fields.length === 0) return row;
  return Object.fromEntries(fields.map((f) => [f, fieldValue(row, f)]));
}

/** A cell for flat formats (table, csv): nested values as compact JSON, exact numbers as their digits, nothing for null. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !isLosslessNumber(value)) return jsonText(value);
  return String(value);
}

/** Non-objects (a list of ids, strings) become one-column rows so every format can show them. */
export function asRow(value: unknown): Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : { value };
}
