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
  constructor(
    readonly tx: Transaction,
    readonly collection: CollectionName,
  ) {}

  get(id: number): Promise<StoredRecord | undefined> {
    return this.tx.get(this.collection, id);
  }

  /**
   * The records `ids` name, in the order given, as this request sees them (read, and
   * on PostgreSQL locked, in id order, so concurrent requests never deadlock on each
   * other); 404 naming every id that names none. A BigInt is an int64 id past 2^53,
   * which no record here has: it is never sent to the store.
   */
  async existing(ids: readonly (number | bigint)[], noun: Noun): Promise<StoredRecord[]> {
    const numbers = ids.filter((id): id is number => typeof id === 'number');
    const found = new Map((await this.tx.getMany(this.collection, numbers)).map((record) => [record.id, record]));
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
    return record;
  }

  delete(id: number): void {
    this.tx.delete(this.collection, id);
  }
}
