/**
 * Record ids as text (a path segment, a command-line argument, a cell of an ids
 * file): plain decimal digits of a positive integer(int64), and nothing else.
 * `Number` alone would also read ' 1', '1e0' and '0x1' as 1, so a typo could act
 * on another record. The one reading of an id for the CLI and the server alike.
 */

/**
 * A record id: the spec's integer(int64). Up to 2^53 a number; past it a BigInt, so
 * that 9223372036854775807 reaches the service as typed, not as the nearest double.
 */
export type RecordId = number | bigint;

/** Largest integer(int64). */
export const INT64_MAX = 9223372036854775807n;

/**
 * The id a value names: a number or BigInt in int64's positive range, or its plain
 * decimal text (as a service or a file may spell it); `undefined` when it names none.
 * The one reading of an id from an answer, a file, a plan or a receipt.
 */
export function toRecordId(value: unknown): RecordId | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  if (typeof value === 'bigint') return value > 0n && value <= INT64_MAX ? canonicalId(value) : undefined;
  return typeof value === 'string' ? parseRecordId(value.trim()) : undefined;
}

/** Whether `value` is an id in its one form (see `canonicalId`): a positive int64. */
export function isRecordId(value: unknown): value is RecordId {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0;
  return typeof value === 'bigint' && value > BigInt(Number.MAX_SAFE_INTEGER) && value <= INT64_MAX;
}

/** Whether `text` is plain decimal digits: the only spelling of an id. */
export function isPlainDigits(text: string): boolean {
  return /^\d+$/.test(text);
}

/** The id `text` names (a number up to 2^53, else a BigInt), or `undefined` when it is not plain digits of a positive int64. */
export function parseRecordId(text: string): RecordId | undefined {
  if (!isPlainDigits(text)) return undefined;
  const id = Number(text);
  if (Number.isSafeInteger(id)) return id > 0 ? id : undefined;
  const exact = BigInt(text);
  return exact <= INT64_MAX ? exact : undefined;
}

/**
 * An id in its one form: a number up to 2^53, a BigInt past it. A Set or Map tells
 * 7 from 7n, so every id is kept in this form wherever ids are compared or keyed.
 */
export function canonicalId(id: number | bigint): RecordId {
  if (typeof id === 'number') return id;
  return id <= BigInt(Number.MAX_SAFE_INTEGER) && id >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(id) : id;
}

/** The id after `id` (id counters), exact past 2^53. */
export function idAfter(id: RecordId): RecordId {
  return typeof id === 'number' && id < Number.MAX_SAFE_INTEGER ? id + 1 : canonicalId(BigInt(id) + 1n);
}

/** Ids in ascending order, exactly (numbers and BigInts compare by value): a sort comparator. */
export function compareIds(a: RecordId, b: RecordId): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What a record's `id` field names, by the same rule in plans, runs and applies:
 * an id as `toRecordId` reads it (`42`, `"42"` as a csv cell read with `--raw`
 * holds it, ids past 2^53) is that id; absent, null or an empty cell names none
 * (a create); anything else (`"abc"`, `12.5`, `-1`) is `unreadable`, refused
 * before anything is sent.
 */
export function recordIdOf(value: unknown): RecordId | 'none' | 'unreadable' {
  if (value === undefined || value === null || value === '') return 'none';
  return toRecordId(value) ?? 'unreadable';
}
