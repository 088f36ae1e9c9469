import { idAfter } from '../contract/ids.js';
import type { JournalEntry } from './journal-entry.js';
import type { PackedPut, ScannedEntry } from './journal-frame.js';
import { PackedRecords } from './packed-records.js';
import type { Entry } from './packed-records.js';
import { Table } from './table.js';
import { COLLECTIONS } from './types.js';
import type { Change, CollectionName, RecordId } from './types.js';

/** What a snapshot holds: the records (entries of `packed`) and id counters as of entry `seq`. */
export interface SnapshotContent {
  seq: number;
  nextIds: Partial<Record<CollectionName, RecordId>>;
  collections: ReadonlyArray<readonly [CollectionName, readonly Entry[]]>;
  packed: PackedRecords;
}

/**
 * The store's data in memory: one table per collection, the next id of each, and the
 * sequence number of the last entry applied. Knows nothing of files.
 */
export class StoreState {
  readonly tables = new Map<CollectionName, Table>();
  /** The records the snapshot held at start, shared by every table. */
  readonly packed = new PackedRecords();
  private readonly nextIds = new Map<CollectionName, RecordId>();
  seq = 0;

  constructor(indexes: Partial<Record<CollectionName, readonly string[]>> = {}) {
    for (const name of COLLECTIONS) this.tables.set(name, new Table(this.packed, indexes[name]));
  }

  table(name: CollectionName): Table {
    const table = this.tables.get(name);
    if (table === undefined) throw new TypeError(`unknown collection ${String(name)}`);
    return table;
  }

  allocateId(name: CollectionName): RecordId {
    const id = this.nextId(name);
    this.nextIds.set(name, idAfter(id));
    return id;
  }

  nextId(name: CollectionName): RecordId {
    return this.nextIds.get(name) ?? 1;
  }

  /** Raises a counter (never lowers it: ids are not reused). */
  raiseNextId(name: CollectionName, next: RecordId): void {
    if (next > this.nextId(name)) this.nextIds.set(name, next);
  }

  /** Applies one checked entry (puts as records, or as text from replay); cannot fail part-way. */
  apply(entry: JournalEntry | ScannedEntry): void {
    if (entry.clear === true) {
      for (const table of this.tables.values()) table.clear();
    }
    const changes = entry.changes ?? [];
    if (changes.length === 1) this.applyChange(changes[0] as Change | PackedPut);
    else this.applyChanges(changes);
    const ids = entry.ids ?? {};
    for (const name in ids) this.raiseNextId(name as CollectionName, ids[name as CollectionName] as RecordId);
    this.seq = entry.seq;
  }

  /** One change: most entries hold one, and need none of `applyChanges`'s bookkeeping. */
  private applyChange(change: Change | PackedPut): void {
    if (change.op === 'delete') {
      this.table(change.collection).delete(change.id);
      return;
    }
    if ('position' in change) this.table(change.collection).putFromJournal(change);
    else this.table(change.collection).put(change.record);
    this.raiseNextId(change.collection, idAfter('position' in change ? change.id : change.record.id));
  }

  /**
   * Puts in order; deletes gathered per collection and applied together (a put and a
   * delete of different ids commute), except that a put of an id waiting to be deleted
   * first applies the deletes it follows.
   */
  private applyChanges(changes: ReadonlyArray<Change | PackedPut>): void {
    const puts = new Map<CollectionName, number>();
    for (const change of changes) if (change.op === 'put') puts.set(change.collection, (puts.get(change.collection) ?? 0) + 1);
    for (const [name, count] of puts) this.table(name).expectPuts(count);

    const deletes = new Map<CollectionName, Set<RecordId>>();
    const flush = (name: CollectionName) => {
      const ids = deletes.get(name);
      if (ids === undefined) return;
      deletes.delete(name);
      this.table(name).deleteMany(ids);
    };
    for (const change of changes) {
      if (change.op === 'put') {
        if (deletes.get(change.collection)?.has('position' in change ? change.id : change.record.id)) flush(change.collection);
        this.applyChange(change);
      } else {
        let ids = deletes.get(change.collection);
        if (ids === undefined) deletes.set(change.collection, (ids = new Set()));
        ids.add(change.id);
      }
    }
    for (const name of [...deletes.keys()]) flush(name);
  }

  /**
   * A consistent view to write a snapshot from while writes go on: records are never
   * changed in place (a put swaps in a new object) and packed ones never change, so
   * copying the arrays of entries is enough.
   */
  capture(): SnapshotContent {
    return {
      seq: this.seq,
      nextIds: Object.fromEntries(this.nextIds),
      collections: COLLECTIONS.map((name) => [name, this.table(name).entries().slice()] as const),
      packed: this.packed,
    };
  }
}
