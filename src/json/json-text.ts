/**
 * The one JSON text module of pla, for the client, the CLI's files and outputs,
 * the local server and its stores: parse and write JSON without changing a number
 * (see exact-number.ts for how numbers are held, and docs/exact-numbers.md).
 *
 * Parsing keeps `JSON.parse` on the fast path: only a text holding a long run of
 * digits or a 3-digit exponent can hold a number a double would change, and only
 * such a text goes through lossless-json's parser.
 */
import { parse } from 'lossless-json';
import { exactNumber, type JsonNumber, unrepresentable, withExactDecimalsAs } from './exact-number.js';

/**
 * Could hold a number a double changes: one of 16 or more digits (a double holds
 * every number of 15), which has 16 in a row or 8 on one side of its point, or an
 * exponent of 3 digits (1e400, 1e-400). A false alarm only costs the slower parser.
 * Measured (bench/json-text.mjs) at about half of what `JSON.parse` itself takes;
 * a test written with `[\d.]` runs or a bare `[eE]` took twice that.
 */
const MAY_BE_INEXACT = /\d{16}|\.\d{8}|\d{8}\.|\d[eE][+-]?\d{3}/;

/** Whether `text` (a document or one number literal) may hold a number a double would change: the slow path's test. */
export function mayBeInexact(text: string): boolean {
  return MAY_BE_INEXACT.test(text);
}

/** Thrown when input holds a number no JSON reader could take as written (1e400). */
export class UnrepresentableNumberError extends SyntaxError {}

/** Reads a number of input, refusing one a double turns into Infinity or 0 (`UnrepresentableNumberError`). */
export function inputNumber(text: string): JsonNumber {
  const reason = unrepresentable(text);
  if (reason !== undefined) throw new UnrepresentableNumberError(reason);
  return exactNumber(text);
}

export interface ParseOptions {
  /**
   * Input to be sent (files, `--data`): a number a double cannot hold at all (1e400)
   * throws `UnrepresentableNumberError` instead of being kept as text. Answers are
   * read without it: what the service said is kept, exactly.
   */
  input?: boolean;
}

/**
 * `JSON.parse`, with every number exact: integers past 2^53 as BigInts, other
 * numbers a double would round as `ExactDecimal`s. Syntax errors are
 * `JSON.parse`'s own (same messages on both paths).
 */
export function parseJson(text: string, options: ParseOptions = {}): unknown {
  if (!MAY_BE_INEXACT.test(text)) return JSON.parse(text) as unknown;
  try {
    // A repeated key keeps its last value, as with `JSON.parse` (lossless-json would throw).
    return parse(text, null, { parseNumber: options.input ? inputNumber : exactNumber, onDuplicateKey: ({ newValue }) => newValue });
  } catch (error) {
    if (error instanceof UnrepresentableNumberError) throw error;
    JSON.parse(text); // the native message for the same syntax error
    throw error;
  }
}

/**
 * Stands in for an exact number while stringifying; the nonce keeps a client's own
 * string from looking like one (Math.random: node:crypto stays out of a `get`'s start-up).
 */
const MARK = `\u0000exact:${Math.random().toString(36).slice(2)}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(-?[\\d.eE+-]+)"`, 'g');

const mark = (text: string): string => `${MARK}${text}`;

const markBigInt = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? mark(String(v)) : v);

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
  return withExactDecimalsAs(mark, () => JSON.stringify(value, markBigInt, indent)).replace(MARKED, '$1');
}
