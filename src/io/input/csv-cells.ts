/**
 * How pla's csv cells carry typed values, both ways (`typeCell` reads, `csvCast`
 * writes), so that `list -o csv` fed back through `upsert --file` gives the same
 * records:
 * - unquoted `12`, `-3.5`, `1e3` are numbers (exact past a double's precision:
 *   json/exact-number.ts), `true`/`false` booleans, an empty
 *   cell leaves the field out; a string that would read as one of those is
 *   written quoted (`"123"`), and a quoted cell stays text;
 * - a cell starting with `{`, `[` or `"` that is valid JSON is that JSON: nested
 *   objects and arrays are written as JSON, and a string that itself starts with
 *   one of those characters is written as a JSON string, so it reads back as text.
 */

import { InputError } from '../../errors.js';
import { exactNumber, isLosslessNumber, unrepresentable } from '../../json/exact-number.js';
import { jsonText } from '../../json/json-text.js';
import { parseJson, UnrepresentableNumberError } from '../../json/json-parse.js';

// Plain decimal numbers only: no leading zeros ("007" is a code, not 7), no hex, no spaces.
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** First characters of a cell that may hold JSON: an object, an array, a JSON string. */
const JSON_START = /^[{["]/;

/** The JSON value a cell holds, or `undefined` when it holds none. */
function jsonCell(value: string): { value: unknown } | undefined {
  if (!JSON_START.test(value)) return undefined;
  try {
    return { value: parseJson(value, { input: true }) };
  } catch (error) {
    if (error instanceof UnrepresentableNumberError) throw new InputError(error.message);
    return undefined;
  }
}

/**
 * Types one csv cell: JSON cells (see above) become their value; of the others, a
 * quoted one stays text, `true`/`false` become booleans, plain decimal numbers
 * become numbers, exact however many digits they have (a number no double can
 * hold, such as 1e400, is an `InputError`), an empty cell becomes `undefined`
 * (the field is left out of the record sent); anything else stays text.
 */
export function typeCell(value: string, quoted = false): unknown {
  const json = jsonCell(value);
  if (json) return json.value;
  if (quoted) return value;
  if (value === '') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (NUMBER.test(value)) {
    const reason = unrepresentable(value);
    if (reason !== undefined) throw new InputError(reason);
    return exactNumber(value);
  }
  return value;
}

/**
 * Which cells of one raw csv record were quoted, by position. A quoted cell stays
 * text (`"123"` is how a csv says "the text 123"). csv-parse can tell this only
 * through its per-cell cast context, which costs ten times the parse itself, so
 * the raw record is scanned here instead, and only when it holds a quote at all.
 */
function quotedCells(raw: string): boolean[] {
  const quoted: boolean[] = [];
  let atStart = true;
  let inQuotes = false;
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (atStart) {
      atStart = false;
      quoted.push(char === '"');
      if (char === '"') {
        inQuotes = true;
        continue;
      }
    }
    if (inQuotes) {
      if (char === '"') {
        if (raw[i + 1] === '"') i += 1;
        else inQuotes = false;
      }
    } else if (char === ',') atStart = true;
  }
  if (atStart) quoted.push(false);
  return quoted;
}

/** Types the cells of a parsed record in place (quoted ones stay text unless JSON). */
export function typeRecord(record: Record<string, unknown>, raw: string): void {
  const quoted = raw.includes('"') ? quotedCells(raw) : undefined;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const value = record[key];
    if (typeof value === 'string') record[key] = typeCell(value, quoted?.[i] === true);
  }
}

/** A string cell as `typeCell` will read it back: JSON-encoded or quoted when it would not read as itself. */
function stringCell(value: string): string | { value: string; quoted: true } {
  if (JSON_START.test(value)) return JSON.stringify(value);
  return typeCell(value) === value ? value : { value, quoted: true };
}

/**
 * csv-stringify's `cast` for pla's csv (see the module comment): give it the
 * records' own values, not text, so it knows a number from a numeric string.
 */
export const csvCast = {
  string: stringCell,
  boolean: (value: boolean): string => String(value),
  bigint: (value: bigint): string => String(value),
  object: (value: object): string => (isLosslessNumber(value) ? String(value) : jsonText(value)),
};
