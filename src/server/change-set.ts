/**
 * The pending changes of one request over one collection. Reads see the request's
 * own earlier changes (a bulk body may name the same id twice), and the result is
 * one list of `Change`s for a single all-or-nothing `store.commit`.
 */
import type { Noun } from '../contract/wording.js';
import type { Change, CollectionName, Store, StoredRecord } from '../store/types.js';
import { notFound } from './problem.js';

/** A request's puts and deletes on one collection, read through and committed together. */
export class ChangeSet {
  private readonly pending = new Map<number, StoredRecord | null>();

  constructor(
    private readonly store: Store,
    readonly collection: CollectionName,
  ) {}

  get(id: number): StoredRecord | undefined {
    if (this.pending.has(id)) return this.pending.get(id) ?? undefined;
    return this.store.get(this.collection, id);
  }

  /** The records `ids` name, as this request sees them; 404 naming every id that names none. */
  existing(ids: readonly number[], noun: Noun): StoredRecord[] {
    const missing = ids.filter((id) => !this.get(id));
    if (missing.length) throw notFound(noun, missing);
    return ids.map((id) => this.get(id) as StoredRecord);
  }

  put(record: StoredRecord): StoredRecord {
    this.pending.set(record.id, record);
    return record;
  }

  delete(id: number): void {
    this.pending.set(id, null);
  }

  changes(): Change[] {
    return [...this.pending].map(([id, record]): Change =>
      record ? { op: 'put', collection: this.collection, record } : { op: 'delete', collection: this.collection, id },
    );
  }

  async commit(): Promise<void> {
    if (this.pending.size) await this.store.commit(this.changes());
  }
}
