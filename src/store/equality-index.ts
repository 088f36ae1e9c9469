import { jsonText } from '../json/json-text.js';
import { byIdAscending, fieldValue } from './record-order.js';
import { SortedList } from './sorted-list.js';
import type { StoredRecord } from './types.js';

// Primitives are Map keys as they are; objects and arrays by their JSON, kept in a
// separate map so that the string '{"a":1}' and the object {a:1} stay distinct.
function bucketKey(value: unknown): { map: 'plain' | 'json'; key: unknown } {
  return typeof value === 'object' && value !== null ? { map: 'json', key: jsonText(value) } : { map: 'plain', key: value };
}

/** Whether two field values are equal as an index compares them (objects by JSON). */
export function indexEquals(a: unknown, b: unknown): boolean {
  const keyA = bucketKey(a);
  const keyB = bucketKey(b);
  return keyA.map === keyB.map && (keyA.key === keyB.key || (Number.isNaN(keyA.key) && Number.isNaN(keyB.key)));
}

/** Records of one collection grouped by the value of one field, each group in id order. */
export class EqualityIndex {
  private readonly plain = new Map<unknown, SortedList>();
  private readonly json = new Map<unknown, SortedList>();

  constructor(readonly field: string) {}

  /** The records whose field equals `value`, in id order (the index's own array). */
  lookup(value: unknown): readonly StoredRecord[] {
    const { map, key } = bucketKey(value);
    return (map === 'plain' ? this.plain : this.json).get(key)?.items ?? [];
  }

  add(record: StoredRecord): void {
    const { map, key } = bucketKey(fieldValue(record, this.field));
    const buckets = map === 'plain' ? this.plain : this.json;
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = new SortedList(byIdAscending);
      buckets.set(key, bucket);
    }
    bucket.insert(record);
  }

  remove(record: StoredRecord): void {
    const { map, key } = bucketKey(fieldValue(record, this.field));
    const buckets = map === 'plain' ? this.plain : this.json;
    const bucket = buckets.get(key);
    if (bucket === undefined) return;
    bucket.remove(record);
    if (bucket.length === 0) buckets.delete(key);
  }

  /** Removes many records (`ids` are theirs), each group they were in filtered once. */
  removeAll(doomed: Iterable<StoredRecord>, ids: ReadonlySet<StoredRecord['id']>): void {
    const touched = new Map<SortedList, () => void>();
    for (const record of doomed) {
      const { map, key } = bucketKey(fieldValue(record, this.field));
      const buckets = map === 'plain' ? this.plain : this.json;
      const bucket = buckets.get(key);
      if (bucket !== undefined) touched.set(bucket, () => buckets.delete(key));
    }
    for (const [bucket, drop] of touched) {
      bucket.removeAll(ids);
      if (bucket.length === 0) drop();
    }
  }

  replace(previous: StoredRecord, next: StoredRecord): void {
    const before = bucketKey(fieldValue(previous, this.field));
    const after = bucketKey(fieldValue(next, this.field));
    if (before.map === after.map && Object.is(before.key, after.key)) {
      (before.map === 'plain' ? this.plain : this.json).get(before.key)?.replace(previous, next);
      return;
    }
    this.remove(previous);
    this.add(next);
  }

  clear(): void {
    this.plain.clear();
    this.json.clear();
  }
}
