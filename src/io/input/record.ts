/** The column/field the rejects file adds; dropped on re-read so a fixed rejects file can be fed back. */
export const ERROR_FIELD = '_error';
/** For an unreadable input row, the rejects file also has its line and its text as read. */
export const LINE_FIELD = '_line';
export const RAW_FIELD = '_raw';

/** Drops the fields a rejects file adds (`_error`, `_line`, `_raw`), so a fixed rejects file feeds back as input. */
export function dropRejectFields(record: Record<string, unknown>): void {
  for (const field of [ERROR_FIELD, LINE_FIELD, RAW_FIELD]) if (Object.hasOwn(record, field)) delete record[field];
}

/** Whether a parsed value is a record: a JSON object, not an array or null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Describes a value's JSON type for a bad-row message. */
export function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
