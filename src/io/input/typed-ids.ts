/**
 * Ids typed on the command line (positional arguments, `--ids 1,2,3`). Its own
 * module with no readers behind it: `get 7` parses its id without loading csv or
 * streaming-json code.
 */
import { UsageError } from '../../errors.js';

/**
 * A record id: the spec's integer(int64). Up to 2^53 a number; past it a BigInt, so
 * that 9223372036854775807 reaches the service as typed, not as the nearest double.
 */
export type RecordId = number | bigint;

/** Largest integer(int64). */
const INT64_MAX = 9223372036854775807n;

/** A positive integer id from a number or its decimal text (up to int64's maximum); `undefined` if it is not one. */
export function parseId(value: unknown): RecordId | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  if (typeof value === 'bigint') return value > 0n && value <= INT64_MAX ? value : undefined;
  const text = typeof value === 'string' ? value.trim() : '';
  if (!/^\d+$/.test(text)) return undefined;
  const id = Number(text);
  if (Number.isSafeInteger(id)) return id > 0 ? id : undefined;
  const exact = BigInt(text);
  return exact <= INT64_MAX ? exact : undefined;
}

/** Typed ids in order, blanks left out; a bad one is a `UsageError` (nothing has been sent yet). */
export function typedIds(texts: readonly string[]): RecordId[] {
  return texts
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .map((text) => {
      const id = parseId(text);
      if (id === undefined) throw new UsageError(`'${text}' is not an id: ids are positive integers up to ${INT64_MAX}`);
      return id;
    });
}
