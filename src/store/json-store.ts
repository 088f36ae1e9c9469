/**
 * The JSON-file store: the `Store` interface over the tables of one data folder
 * (`file-store.ts`: snapshot + journal, locked to this process). Reads answer from
 * memory; transactions run one at a time in this process, so what a transaction
 * reads cannot change before it commits, and its changes are one journal entry.
 */
import { compareIds, type RecordId } from '../contract/ids.js';
import { openFileTables } from './file-store.js';
import type { FileStoreOptions, FileTables } from './file-store.js';
import { predicateOf, textTestOf } from './query.js';
import { comparatorFor } from './record-order.js';
import type { TableQuery } from './table.js';
import type { Change, CollectionName, Condition, PageQuery, PageResult, Query, Store, StoredRecord, StoreHealth, StoreReader, Transaction } from './types.js';

/** Opens a data folder as a `Store` (see `openFileTables` for what it throws). */
export async function openJsonStore(options: FileStoreOptions): Promise<Store> {
  return new JsonStore(await openFileTables(options), options.indexes ?? {});
}

type Indexes = NonNullable<FileStoreOptions['indexes']>;

/** The file tables' form of a query: an indexed equality picks the group, the rest filters. */
function tableQuery(indexes: Indexes, collection: CollectionName, query: Query, offset: number, limit: number): TableQuery {
  // No condition (a plain page, every page read of the server's list endpoints): nothing to choose or test.
  if (query.where === undefined || query.where.length === 0) return query.sort ? { offset, limit, sort: query.sort } : { offset, limit };
  const { where } = query;
  const indexed = indexes[collection] ?? [];
  const at = where.findIndex((c) => 'equals' in c && indexed.includes(c.field) && (typeof c.equals !== 'object' || c.equals === null));
  const chosen = where[at] as { field: string; equals: unknown } | undefined;
  const rest = chosen === undefined ? where : where.filter((_, i) => i !== at);
  const predicate = predicateOf(rest);
  const text = predicate ? textTestOf(rest) : undefined;
  return {
    offset,
    limit,
    ...(query.sort ? { sort: query.sort } : {}),
    ...(chosen ? { index: { field: chosen.field, value: chosen.equals } } : {}),
    ...(predicate ? { where: predicate } : {}),
    ...(text ? { text } : {}),
  };
}

/** Reads straight from the committed tables. */
class TableReader implements StoreReader {
  constructor(
    protected readonly tables: FileTables,
    protected readonly indexes: Indexes,
  ) {}

  // Answered at once, not as a promise: reads come from memory (see `Eventually`).
  get(collection: CollectionName, id: RecordId): StoredRecord | undefined {
    return this.tables.get(collection, id);
  }

  async getMany(collection: CollectionName, ids: readonly RecordId[]): Promise<StoredRecord[]> {
    return [...new Set(ids)].sort(compareIds).flatMap((id) => this.tables.get(collection, id) ?? []);
  }

  page(collection: CollectionName, query: PageQuery): PageResult {
    return this.tables.page(collection, tableQuery(this.indexes, collection, query, query.offset, query.limit));
  }

  async find(collection: CollectionName, query: Query = {}): Promise<StoredRecord[]> {
    return this.tables.page(collection, tableQuery(this.indexes, collection, query, 0, Number.MAX_SAFE_INTEGER)).items;
  }

  async count(collection: CollectionName, where: readonly Condition[] = []): Promise<number> {
    if (where.length === 0) return this.tables.count(collection);
    return this.tables.page(collection, tableQuery(this.indexes, collection, { where }, 0, 0)).total;
  }
}

/**
 * One transaction: reads see the tables plus what it staged. Staged records of a
 * collection make its queries run over the merged records in JavaScript (rare: a
 * handler reads before it writes).
 */
class JsonTransaction extends TableReader implements Transaction {
  readonly changes: Change[] = [];
  cleared = false;
  private readonly staged = new Map<CollectionName, Map<RecordId, StoredRecord | null>>();

  private stagedOf(collection: CollectionName): Map<RecordId, StoredRecord | null> | undefined {
    return this.staged.get(collection);
  }

  override get(collection: CollectionName, id: RecordId): StoredRecord | undefined {
    const staged = this.stagedOf(collection);
    if (staged?.has(id)) return staged.get(id) ?? undefined;
    return this.cleared ? undefined : this.tables.get(collection, id);
  }

  override async getMany(collection: CollectionName, ids: readonly RecordId[]): Promise<StoredRecord[]> {
    const found: StoredRecord[] = [];
    for (const id of [...new Set(ids)].sort(compareIds)) {
      const record = await this.get(collection, id);
      if (record) found.push(record);
    }
    return found;
  }

  override page(collection: CollectionName, query: PageQuery): PageResult {
    if (!this.touched(collection)) return super.page(collection, query);
    const all = this.merged(collection, query);
    return { items: all.slice(query.offset, query.offset + query.limit), total: all.length };
  }

  override async find(collection: CollectionName, query: Query = {}): Promise<StoredRecord[]> {
    return this.touched(collection) ? this.merged(collection, query) : super.find(collection, query);
  }

  override async count(collection: CollectionName, where: readonly Condition[] = []): Promise<number> {
    return this.touched(collection) ? this.merged(collection, { where }).length : super.count(collection, where);
  }

  async allocateIds(collection: CollectionName, count: number): Promise<RecordId[]> {
    return Array.from({ length: count }, () => this.tables.allocateId(collection));
  }

  put(collection: CollectionName, record: StoredRecord): void {
    this.stage(collection, record.id, record);
    this.changes.push({ op: 'put', collection, record });
  }

  delete(collection: CollectionName, id: RecordId): void {
    this.stage(collection, id, null);
    this.changes.push({ op: 'delete', collection, id });
  }

  clear(): void {
    this.cleared = true;
    this.staged.clear();
    this.changes.length = 0;
  }

  /** One process holds the data folder, and its transactions run one at a time: the lock is always free. */
  async tryLock(): Promise<boolean> {
    return true;
  }

  async lock(): Promise<void> {}

  private stage(collection: CollectionName, id: RecordId, record: StoredRecord | null): void {
    let staged = this.staged.get(collection);
    if (!staged) this.staged.set(collection, (staged = new Map()));
    staged.set(id, record);
  }

  private touched(collection: CollectionName): boolean {
    return this.cleared || this.staged.has(collection);
  }

  private merged(collection: CollectionName, query: Query): StoredRecord[] {
    const staged = this.stagedOf(collection) ?? new Map<RecordId, StoredRecord | null>();
    const records = this.cleared ? [] : [...this.tables.all(collection)].filter((r) => !staged.has(r.id));
    for (const record of staged.values()) if (record) records.push(record);
    const keep = predicateOf(query.where ?? []);
    return (keep ? records.filter(keep) : records).sort(comparatorFor(query.sort ?? []));
  }
}

class JsonStore extends TableReader implements Store {
  readonly backend = 'json-file' as const;
  /** The transaction under way ends this chain; the next one waits for it. */
  private turn: Promise<void> = Promise.resolve();

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const previous = this.turn;
    let done!: () => void;
    this.turn = new Promise((resolve) => (done = resolve));
    await previous;
    let durable: Promise<void> | undefined;
    try {
      const tx = new JsonTransaction(this.tables, this.indexes);
      const result = await work(tx);
      // Applied to memory at once (the next transaction sees it); durable when the journal says so.
      if (tx.cleared) durable = this.tables.clear(tx.changes);
      else if (tx.changes.length) durable = this.tables.commit(tx.changes);
      done();
      await durable;
      return result;
    } finally {
      done();
    }
  }

  async health(): Promise<StoreHealth> {
    return { backend: this.backend, state: 'ok' };
  }

  close(): Promise<void> {
    return this.tables.close();
  }
}
