/**
 * Writing JSON without changing a number, for the client, the CLI's files and
 * outputs, the local server and its stores (src/json/: json-parse.ts reads, this
 * file writes, exact-number.ts holds the numbers; docs/exact-numbers.md). Kept
 * apart from the reader so that writing (an error report, `--help`'s path) does not
 * load a JSON parser.
 */

/**
 * Stands in for an exact number while stringifying; the nonce keeps a client's own
 * string from looking like one (Math.random: node:crypto stays out of a `get`'s start-up).
 */
const MARK = `\u0000exact:${Math.random().toString(36).slice(2)}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(-?[\\d.eE+-]+)"`, 'g');

const mark = (text: string): string => `${MARK}${text}`;

const markBigInt = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? mark(String(v)) : v);

/** True while `jsonText` writes a value again with its exact numbers marked. */
let marking = false;

/**
 * What an `ExactDecimal` writes itself as (its `toJSON`): a marked string while
 * `jsonText` writes, which it then unquotes; otherwise a TypeError, as plain
 * `JSON.stringify` gives for a BigInt, rather than an object in its place.
 */
export function exactDecimalJson(text: string): string {
  if (!marking) throw new TypeError(`an exact number (${text}) is written by jsonText, not JSON.stringify`);
  return mark(text);
}

/**
 * `JSON.stringify(value, null, indent)`, with BigInts and `ExactDecimal`s as the
 * numbers they are. Plain `JSON.stringify` first: it throws a TypeError at the first
 * exact number, and only then is the value written again with them marked (a
 * replacer on every value would slow every page the server writes).
 */
export function jsonText(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  marking = true;
  try {
    return JSON.stringify(value, markBigInt, indent).replace(MARKED, '$1');
  } finally {
    marking = false;
  }
}
