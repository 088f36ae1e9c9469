/**
 * Numbers JSON can spell but a double cannot hold. The service's ids are
 * integer(int64) and its amounts may carry more digits than a double keeps:
 * `JSON.parse` turns 9007199254740993 into …992 and 12345678901234567.89 into
 * 12345678901234568, silently. pla keeps each number as the value its text
 * stands for:
 *
 * - a number a double holds exactly (the usual case): a `number`;
 * - an integer past 2^53: a `bigint`, the exact native integer (ids are
 *   `RecordId = number | bigint` already, so an id read from an answer, a file
 *   or a path is one type everywhere, and `Set`/`Map` compare BigInts by value);
 * - any other number a double would round (a decimal with too many digits,
 *   `1e400`): an `ExactDecimal`, a `LosslessNumber` (lossless-json), which keeps its text. JS has
 *   no exact decimal type, and pla never computes with amounts: it carries them,
 *   prints them and compares them, which the text does exactly.
 *
 * `parseJson` (json-parse.ts) reads them; `jsonText` (json-text.ts) writes both back
 * as the digits they were read from.
 */
import { compareNumber, getUnsafeNumberReason, isInteger, isLosslessNumber, LosslessNumber, UnsafeNumberReason } from 'lossless-json';

import { exactDecimalJson } from './json-text.js';

export { isLosslessNumber, LosslessNumber };

/**
 * A decimal a double would round, as its text. Plain `JSON.stringify` cannot write it
 * as a number and throws, as it does for a BigInt, rather than write an object in
 * its place: `jsonText` writes both.
 */
export class ExactDecimal extends LosslessNumber {
  toJSON(): string {
    return exactDecimalJson(this.value);
  }
}

/** A JSON number as pla holds it (see the module comment). */
export type JsonNumber = number | bigint | LosslessNumber;

/** The value a JSON number literal stands for, exactly (see the module comment). */
export function exactNumber(text: string): JsonNumber {
  if (isInteger(text)) {
    const number = Number(text);
    return Number.isSafeInteger(number) ? number : BigInt(text);
  }
  return getUnsafeNumberReason(text) === undefined ? Number(text) : new ExactDecimal(text);
}

/**
 * Why a number literal cannot be sent as a number (too large or too small for a
 * double, as `1e400` and `1e-400`: the service would read Infinity or 0), or
 * `undefined` when it can. Long integers and long decimals can: they go out as written.
 */
export function unrepresentable(text: string): string | undefined {
  const reason = getUnsafeNumberReason(text);
  if (reason === UnsafeNumberReason.overflow) return `${text} is too large for a JSON number (a double overflows to Infinity)`;
  if (reason === UnsafeNumberReason.underflow) return `${text} is too small for a JSON number (a double underflows to 0)`;
  return undefined;
}

/** Whether `value` is a number as pla holds one: a finite `number`, a `bigint` or a `LosslessNumber`. */
export function isJsonNumber(value: unknown): value is JsonNumber {
  return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint' || isLosslessNumber(value);
}

/** The digits of a number as JSON writes them (`1e+21` for the double 1e21). */
export function numberText(value: JsonNumber): string {
  return String(value);
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`, exactly, whatever their kinds. */
export function compareNumbers(a: JsonNumber, b: JsonNumber): -1 | 0 | 1 {
  if (!isLosslessNumber(a) && !isLosslessNumber(b)) return a < b ? -1 : a > b ? 1 : 0;
  return compareNumber(numberText(a), numberText(b));
}
