/**
 * The pending changes of one request over one collection, inside the request's
 * transaction. Reads see the request's own earlier changes (a bulk body may name
 * the same id twice); everything is staged on the transaction, which applies it
 * all or nothing when the handler's work returns.
 */
import type { Noun } from '../contract/wording.js';
import type { CollectionName, StoredRecord, Transaction } from '../store/types.js';
import { notFound } from './problem.js';

/** A request's reads, puts and deletes on one collection of a transaction. */
export class ChangeSet {
  /**
   * Records this request has read or put (null: deleted), so that a bulk request
   * reads each once: on PostgreSQL a read is a round trip.
   */
  private readonly seen = new Map<number, StoredRecord | null>();

  constructor(
    readonly tx: Transaction,
    readonly collection: CollectionName,
  ) {}

  async get(id: number): Promise<StoredRecord | undefined> {
    if (this.seen.has(id)) return this.seen.get(id) ?? undefined;
    const record = await this.tx.get(this.collection, id);
    this.seen.set(id, record ?? null);
    return record;
  }

  /** Reads (and on PostgreSQL locks) the records of these ids in one go; returns those that exist, in id order. */
  async getMany(ids: readonly number[]): Promise<StoredRecord[]> {
    const unseen = ids.filter((id) => !this.seen.has(id));
    if (unseen.length) {
      const found = new Map((await this.tx.getMany(this.collection, unseen)).map((record) => [record.id, record]));
      for (const id of unseen) this.seen.set(id, found.get(id) ?? null);
    }
    return [...new Set(ids)].sort((a, b) => a - b).flatMap((id) => this.seen.get(id) ?? []);
  }

  /**
   * The records `ids` name, in the order given, as this request sees them (read, and
   * on PostgreSQL locked, in id order, so concurrent requests never deadlock on each
   * other); 404 naming every id that names none. A BigInt is an int64 id past 2^53,
   * which no record here has: it is never sent to the store.
   */
  async existing(ids: readonly (number | bigint)[], noun: Noun): Promise<StoredRecord[]> {
    const numbers = ids.filter((id): id is number => typeof id === 'number');
    const found = new Map((await this.getMany(numbers)).map((record) => [record.id, record]));
    const missing = ids.filter((id) => typeof id !== 'number' || !found.has(id));
    if (missing.length) throw notFound(noun, missing.map(String));
    return numbers.map((id) => found.get(id) as StoredRecord);
  }

  /** New ids for `count` records of this collection. */
  newIds(count: number): Promise<number[]> {
    return count > 0 ? this.tx.allocateIds(this.collection, count) : Promise.resolve([]);
  }

  put(record: StoredRecord): StoredRecord {
    this.tx.put(this.collection, record);
    this.seen.set(record.id, record);
    return record;
  }

  delete(id: number): void {
    this.tx.delete(this.collection, id);
    this.seen.set(id, null);
  }
}
