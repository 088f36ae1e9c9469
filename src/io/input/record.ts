/** The column/field the rejects file adds; dropped on re-read so a fixed rejects file can be fed back. */
export const ERROR_FIELD = '_error';

/** Whether a parsed value is a record: a JSON object, not an array or null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Describes a value's JSON type for a bad-row message. */
export function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
