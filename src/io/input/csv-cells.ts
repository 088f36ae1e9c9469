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
 *   one of those characters is written as a JSON string, so it reads back as text;
 * - a text cell a spreadsheet would run as a formula (starting with `=`, `+`,
 *   `-`, `@`, tab or carriage return: OWASP's rule for CSV injection) is written
 *   with a leading `'`, which spreadsheets show as text and pla's reader removes;
 *   a text that already starts with `'` before one of those gets one more, so
 *   every text reads back exactly. Header names are guarded the same way.
 *   `--csv-raw` turns the guard off both ways (for tools that want raw cells).
 */

import { InputError } from '../../errors.js';
import { exactNumber, isLosslessNumber, unrepresentable } from '../../json/exact-number.js';
import { jsonText } from '../../json/json-text.js';
import { parseJson, UnrepresentableNumberError } from '../../json/json-parse.js';

/** Text a spreadsheet would run as a formula, after any quotes already guarding it. */
const FORMULA = /^'*[=+\-@\t\r]/;
/** A guarded cell: one `'` more than the text it stands for. */
const GUARDED = /^'+[=+\-@\t\r]/;

/** `text` as a csv cell a spreadsheet shows as text (see the module comment). */
export function guardFormula(text: string): string {
  return FORMULA.test(text) ? `'${text}` : text;
}

/** The text a guarded cell stands for; any other cell as it is. */
export function unguardFormula(cell: string): string {
  return GUARDED.test(cell) ? cell.slice(1) : cell;
}

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
export function typeCell(value: string, quoted = false, guarded = true): unknown {
  if (guarded && GUARDED.test(value)) return value.slice(1);
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
function quotedCells(raw: string, delimiter: string): boolean[] {
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
    } else if (char === delimiter) atStart = true;
  }
  if (atStart) quoted.push(false);
  return quoted;
}

/**
 * Whether a quoted cell of one raw csv record has text after its closing quote
 * (`B31,"q"x`): csv-parse's `relax_quotes` would keep `"q"x` as the cell's text,
 * quotes and all, which is never what a spreadsheet meant.
 */
export function hasStrayQuote(raw: string, delimiter: string): boolean {
  const text = raw.replace(/^[\r\n]+/, '');
  let atStart = true;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (atStart && char === '"') {
      // Walk to the closing quote ("" is a quote inside the cell).
      for (i += 1; i < text.length; i++) {
        if (text[i] !== '"') continue;
        if (text[i + 1] === '"') i += 1;
        else break;
      }
      const next = text[i + 1];
      if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') return true;
      atStart = false;
      continue;
    }
    atStart = char === delimiter;
  }
  return false;
}

/** The typed values of a parsed row's cells (quoted ones stay text unless JSON); `guarded` as in `typeCell`. */
export function typeCells(cells: readonly string[], raw: string, delimiter = ',', guarded = true): unknown[] {
  const quoted = raw.includes('"') ? quotedCells(raw.replace(/^[\r\n]+/, ''), delimiter) : undefined;
  return cells.map((cell, i) => typeCell(cell, quoted?.[i] === true, guarded));
}

/** A string cell as `typeCell` will read it back: guarded, JSON-encoded or quoted when it would not read as itself. */
function stringCell(value: string, guard: boolean): string | { value: string; quoted: true } {
  if (guard && FORMULA.test(value)) return `'${value}`;
  if (JSON_START.test(value)) return JSON.stringify(value);
  return readsAsItself(value, guard) ? value : { value, quoted: true };
}

/** Whether an unquoted cell holding `text` reads back as that text (the text "1e400" does not: it is refused as a number). */
function readsAsItself(text: string, guard: boolean): boolean {
  try {
    return typeCell(text, false, guard) === text;
  } catch (error) {
    if (error instanceof InputError) return false;
    throw error;
  }
}

/**
 * csv-stringify's `cast` for pla's csv (see the module comment): give it the
 * records' own values, not text, so it knows a number from a numeric string.
 * Numbers are written as they are: `-3` is a number to a spreadsheet, not a formula.
 */
export function csvCastFor(options: { guard: boolean }) {
  return {
    string: (value: string) => stringCell(value, options.guard),
    boolean: (value: boolean): string => String(value),
    // Exact numbers (json/exact-number.ts) as their digits, unquoted: they read back as the same numbers.
    bigint: (value: bigint): string => String(value),
    object: (value: object): string => (isLosslessNumber(value) ? String(value) : jsonText(value)),
  };
}

/** The cast of pla's own files (rejects): formulas guarded. */
export const csvCast = csvCastFor({ guard: true });

/** A header line: column names, guarded unless `guard` is false (csv-parse reads a header cell as text). */
export function csvHeaderRow(columns: readonly string[], guard = true): string[] {
  return guard ? columns.map(guardFormula) : [...columns];
}
