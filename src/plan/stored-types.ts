/**
 * Csv cells typed as the stored record types each field. A csv says nothing of
 * types: `1000` may be the number or the code "1000". Where the record is stored
 * (a plan reads it anyway, as does a run on a protected environment) the stored
 * value decides: a stored string keeps the cell's text, a stored number reads a
 * numeric text as a number. Elsewhere the cell keeps its inferred type; any field
 * whose type still differs from the stored one is a type change, which the plan
 * lists as a warning.
 */
import { exactNumber, isJsonNumber, unrepresentable } from '../json/exact-number.js';
import { jsonText } from '../json/json-text.js';
import { SERVER_OWNED_FIELDS } from './record-diff.js';
import { ownField, setField } from '../contract/own-fields.js';
import type { StoredRecordLike } from './types.js';

/** A number as a spreadsheet may write it, leading zeros included (`007`). */
const NUMERIC = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A value's JSON type; exact numbers (BigInts, long decimals) are numbers. */
function typeName(value: unknown): string {
  if (isJsonNumber(value)) return 'number';
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * Types `record`'s csv fields (`cells`: their text as written) as `stored` has
 * them, in place; returns a warning per field whose type still changes.
 */
export function followStoredTypes(record: StoredRecordLike, cells: Readonly<Record<string, string>> | undefined, stored: StoredRecordLike): string[] {
  const warnings: string[] = [];
  for (const [field, sent] of Object.entries(record)) {
    if (SERVER_OWNED_FIELDS.has(field)) continue;
    const before = ownField(stored, field);
    if (before === undefined || before === null) continue;
    const text = cells === undefined ? undefined : ownField(cells, field);
    if (text !== undefined) {
      if (typeof before === 'string' && typeof sent !== 'string') setField(record, field, text);
      else if (isJsonNumber(before) && !isJsonNumber(sent) && NUMERIC.test(text) && unrepresentable(text.replace(/^(-?)0+(?=\d)/, '$1')) === undefined)
        setField(record, field, exactNumber(text.replace(/^(-?)0+(?=\d)/, '$1')));
      else if (typeof before === 'boolean' && typeof sent !== 'boolean' && /^(true|false)$/i.test(text)) setField(record, field, text.toLowerCase() === 'true');
    }
    const now = record[field];
    if (typeName(now) !== typeName(before))
      warnings.push(`${field}: stored as ${typeName(before)} ${jsonText(before)}, sent as ${typeName(now)} ${jsonText(now)}`);
  }
  return warnings;
}
