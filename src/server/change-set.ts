/**
 * The pending changes of one request over one collection, inside the request's
 * transaction. Reads see the request's own earlier changes (a bulk body may name
 * the same id twice); everything is staged on the transaction, which applies it
 * all or nothing when the handler's work returns.
 */
import type { Noun } from '../contract/wording.js';
import { compareIds, type RecordId } from '../contract/ids.js';
import type { CollectionName, StoredRecord, Transaction } from '../store/types.js';
import { notFound } from './problem.js';

/** A request's reads, puts and deletes on one collection of a transaction. */
export class ChangeSet {
  /**
   * Records this request has read or put (null: deleted), so that a bulk request
   * reads each once: on PostgreSQL a read is a round trip.
   */
  private readonly seen = new Map<RecordId, StoredRecord | null>();

  constructor(
    readonly tx: Transaction,
    readonly collection: CollectionName,
  ) {}

  async get(id: RecordId): Promise<StoredRecord | undefined> {
    if (this.seen.has(id)) return this.seen.get(id) ?? undefined;
    const record = await this.tx.get(this.collection, id);
    this.seen.set(id, record ?? null);
    return record;
  }

  /** Reads (and on PostgreSQL locks) the records of these ids in one go; returns those that exist, in id order. */
  async getMany(ids: readonly RecordId[]): Promise<StoredRecord[]> {
    const unseen = ids.filter((id) => !this.seen.has(id));
    if (unseen.length) {
      const found = new Map((await this.tx.getMany(this.collection, unseen)).map((record) => [record.id, record]));
      for (const id of unseen) this.seen.set(id, found.get(id) ?? null);
    }
    return [...new Set(ids)].sort(compareIds).flatMap((id) => this.seen.get(id) ?? []);
  }

  /**
   * The records `ids` name, in the order given, as this request sees them (read, and
   * on PostgreSQL locked, in id order, so concurrent requests never deadlock on each
   * other); 404 naming every id that names none.
   */
  async existing(ids: readonly RecordId[], noun: Noun): Promise<StoredRecord[]> {
    const found = new Map((await this.getMany(ids)).map((record) => [record.id, record]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw notFound(noun, missing.map(String));
    return ids.map((id) => found.get(id) as StoredRecord);
  }

  /** New ids for `count` records of this collection. */
  newIds(count: number): Promise<RecordId[]> {
    return count > 0 ? this.tx.allocateIds(this.collection, count) : Promise.resolve([]);
  }

  put(record: StoredRecord): StoredRecord {
    this.tx.put(this.collection, record);
    this.seen.set(record.id, record);
    return record;
  }

  delete(id: RecordId): void {
    this.tx.delete(this.collection, id);
    this.seen.set(id, null);
  }
}
