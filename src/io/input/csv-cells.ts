// Plain decimal numbers only: no leading zeros ("007" is a code, not 7), no hex, no spaces.
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Types one unquoted csv cell: `true`/`false` become booleans, plain decimal
 * numbers become numbers (unless too large to be exact), an empty cell becomes
 * `undefined` (the field is left out of the record sent); anything else stays text.
 */
export function typeCell(value: string): unknown {
  if (value === '') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (NUMBER.test(value)) {
    const number = Number(value);
    if (/[.eE]/.test(value) || Number.isSafeInteger(number)) return number;
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

/** Types the cells of a parsed record in place, leaving quoted ones text. */
export function typeRecord(record: Record<string, unknown>, raw: string): void {
  const quoted = raw.includes('"') ? quotedCells(raw) : undefined;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    if (quoted?.[i]) continue;
    const key = keys[i] as string;
    const value = record[key];
    if (typeof value === 'string') record[key] = typeCell(value);
  }
}
