/**
 * Reading JSON without changing a number, for the client, the CLI's files, the
 * local server and its stores (src/json/: this file reads, json-text.ts writes,
 * exact-number.ts holds the numbers; docs/exact-numbers.md).
 *
 * Parsing keeps `JSON.parse` on the fast path: only a text holding a long run of
 * digits or a 3-digit exponent can hold a number a double would change, and only
 * such a text goes through lossless-json's parser.
 */
import { parse } from 'lossless-json';
import { exactNumber, type JsonNumber, unrepresentable } from './exact-number.js';

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

/**
 * Thrown for valid JSON nested deeper than the exact reader (lossless-json, which
 * recurses) can follow: some thousands of levels. Not a syntax error: the text is
 * JSON, and is not called invalid.
 */
export class NestedTooDeepError extends SyntaxError {}

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
    // Valid JSON all the same: the exact reader ran out of stack (V8's own parser does not recurse).
    if (error instanceof RangeError) throw new NestedTooDeepError('JSON nested too deep to read its numbers exactly', { cause: error });
    throw error;
  }
}

/**
 * Where `text` stops being JSON (a character offset), or `undefined` when it is
 * JSON. For messages that must not quote the text (a file holding keys): V8's own
 * message shows the characters around the fault; lossless-json's names the offset.
 */
export function syntaxErrorOffset(text: string): number | undefined {
  try {
    parse(text);
    return undefined;
  } catch (error) {
    const offset = /at position (\d+)/.exec((error as Error).message)?.[1];
    return offset === undefined ? 0 : Number(offset);
  }
}
