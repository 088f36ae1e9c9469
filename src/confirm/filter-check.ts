/**
 * A filter the service applies (the task search's body) is checked on every
 * record it answered: a service that ignores the filter, or a field of it, must
 * not hand every task to `pla tasks cancel --ids-file -`. The interface's search
 * matches each field by equality, an array as "any of", `{from, to}` as a range;
 * a field given in a form pla cannot check (an object of another shape) is left
 * to the service.
 */
import { isObject } from '../client/objects.js';
import { InvalidAnswerError } from '../errors.js';

/** Compared as text, case aside: `PENDING` and `pending`, 7 and "7", agree. */
function same(a: unknown, b: unknown): boolean {
  if (a === null || b === null || a === undefined || b === undefined) return a === b;
  return String(a).toUpperCase() === String(b).toUpperCase();
}

/** Whether `value` lies in the range `{from, to}` (either end may be missing). */
function inRange(value: unknown, range: Record<string, unknown>): boolean | undefined {
  if (value === undefined || value === null) return false;
  const numeric = typeof value === 'number' || typeof value === 'bigint';
  const key = (v: unknown) => (numeric ? Number(v) : String(v));
  const at = key(value);
  if (range.from !== undefined && range.from !== null && at < key(range.from)) return false;
  if (range.to !== undefined && range.to !== null && at > key(range.to)) return false;
  return true;
}

/** The first field of `filter` the record does not match, with its value, or undefined. */
export function filterMismatch(record: Record<string, unknown>, filter: Record<string, unknown>): string | undefined {
  for (const [field, wanted] of Object.entries(filter)) {
    const value = record[field];
    let matches: boolean | undefined;
    if (Array.isArray(wanted)) matches = wanted.length === 0 || wanted.some((one) => same(value, one));
    else if (isObject(wanted)) matches = 'from' in wanted || 'to' in wanted ? inRange(value, wanted) : undefined;
    else matches = same(value, wanted);
    if (matches === false) return `${field} ${value === undefined ? 'missing' : JSON.stringify(typeof value === 'bigint' ? String(value) : value)}`;
  }
  return undefined;
}

/**
 * Throws when a record answered to a filtered read does not match the filter:
 * the answer is not what was asked, and printing it would act on other records.
 */
export function checkFiltered(records: readonly unknown[], filter: Record<string, unknown>, where: string): void {
  for (const record of records) {
    if (!isObject(record)) continue;
    const mismatch = filterMismatch(record, filter);
    if (mismatch === undefined) continue;
    throw new InvalidAnswerError(
      `the service answered records its filter excludes (${where}): record ${String(record.id)} has ${mismatch}; it may not apply this filter, so nothing of this page was printed`,
      { hint: 'check the filter against the service (`pla tasks search --filter … -o json`), or list without it and filter the output' },
    );
  }
}
