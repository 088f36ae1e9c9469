/**
 * Comparing what would be sent with what is stored. The service merges a sent
 * record into the stored one (fields left out are kept), so a record changes
 * exactly the fields it carries whose value differs; the fields the service owns
 * (id and its timestamps) are never compared.
 */
import { compareNumbers, isJsonNumber } from '../json/exact-number.js';
import type { FieldChange, StoredRecordLike } from './types.js';

/** Fields the service sets itself: the local server's, then the spec's DTO names. */
export const SERVER_OWNED_FIELDS: ReadonlySet<string> = new Set(['id', 'createdAt', 'updatedAt', 'createdDate', 'lastModifiedDate']);

/** Fields a record may carry its last modification in (the local server's, then the spec's). */
export const MODIFIED_FIELDS = ['updatedAt', 'lastModifiedDate', 'modifiedDate', 'modifiedAt'] as const;

/** Structural equality of JSON values (key order does not matter; numbers by value, exactly). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isJsonNumber(a) && isJsonNumber(b)) return compareNumbers(a, b) === 0;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, i) => sameValue(value, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameValue(left[key], right[key]));
}

/** The fields `sent` would change in `current`, old → new (old absent for a new field). */
export function changedFields(current: StoredRecordLike, sent: StoredRecordLike): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, value] of Object.entries(sent)) {
    if (SERVER_OWNED_FIELDS.has(field)) continue;
    if (!Object.hasOwn(current, field)) changes.push({ field, new: value });
    else if (!sameValue(current[field], value)) changes.push({ field, old: current[field], new: value });
  }
  return changes;
}

/** The record's last-modification stamp and the field holding it, when it has one. */
export function modificationOf(record: StoredRecordLike): { field: string; value: string } | undefined {
  for (const field of MODIFIED_FIELDS) {
    const value = record[field];
    if (typeof value === 'string') return { field, value };
  }
  return undefined;
}

/** Whether `current` is still the record the plan saw: same stamp, or (without one) the same whole record. */
export function unchangedSince(before: StoredRecordLike, current: StoredRecordLike): boolean {
  const stamp = modificationOf(before);
  if (stamp) return current[stamp.field] === stamp.value;
  return sameValue(before, current);
}

/** The record without the fields the service owns: what a re-create sends. */
export function clientFields(record: StoredRecordLike): StoredRecordLike {
  return Object.fromEntries(Object.entries(record).filter(([field]) => !SERVER_OWNED_FIELDS.has(field)));
}

/** A value as a record when it is a JSON object (not an array), else `undefined`. */
export function asRecord(value: unknown): StoredRecordLike | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as StoredRecordLike) : undefined;
}
