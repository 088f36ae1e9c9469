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
 * What a record's `id` field names, by the same rule in plans, runs and applies:
 * a positive integer, or its plain digits as text (`"42"`, as a csv cell read
 * with `--raw` holds it), is that id; absent, null or an empty cell names none
 * (a create); anything else (`"abc"`, `12.5`, `-1`) is `unreadable`, refused
 * before anything is sent.
 */
export function recordIdOf(value: unknown): RecordId | 'none' | 'unreadable' {
  if (value === undefined || value === null || value === '') return 'none';
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : 'unreadable';
  if (typeof value === 'bigint') return value > 0n && value <= INT64_MAX ? value : 'unreadable';
  return (typeof value === 'string' ? parseRecordId(value.trim()) : undefined) ?? 'unreadable';
}
