/**
 * The store behind the local server: one interface, two backends (the JSON-file
 * store of one process, `json-store.ts`, and PostgreSQL, `postgres/`). The store
 * knows nothing of HTTP. See docs/store.md for what each backend guarantees.
 *
 * Reads are asynchronous and queries declarative (`Condition`s, `SortKey`s,
 * offset/limit), so PostgreSQL runs them as SQL and the file store with its
 * in-memory indexes. Every change goes through `Store.transaction`: the work
 * reads through the transaction (PostgreSQL locks what a transaction reads, so
 * a state change is checked against the committed state), stages puts and
 * deletes, and they are applied all together or not at all when the work returns.
 *
 * Records returned by reads may be the store's own objects: treat them as
 * read-only and build a new object to change one.
 */

import type { RecordId } from '../contract/ids.js';

export type { RecordId };

/** A stored record. `id` is the identifier within its collection. */
export type StoredRecord = { id: RecordId } & Record<string, unknown>;

export const COLLECTIONS = [
  'determinations',
  'settings',
  'tasks',
  'notifications',
  'emailNotifications',
  'images',
  'topics',
  'apiKeys',
  /** The local server's kept `Idempotency-Key`s with their replies (src/server/idempotency.ts). */
  'idempotencyKeys',
] as const;

export type CollectionName = (typeof COLLECTIONS)[number];

/** One change of one transaction; a transaction's changes are applied together or not at all. */
export type Change = { op: 'put'; collection: CollectionName; record: StoredRecord } | { op: 'delete'; collection: CollectionName; id: RecordId };

export interface SortKey {
  /**
   * A field name; a dotted name (`owner.name`) reads a nested field. A field holding
   * objects or arrays is no sort key: the two backends order those differently (docs/store.md).
   */
  field: string;
  direction: 'asc' | 'desc';
}

/**
 * One condition on one field of a record (a dotted name reads a nested field).
 * Values are JSON values; equality is JSON equality (objects compare by content).
 */
export type Condition =
  /** The field holds exactly this value (a missing field matches nothing). */
  | { field: string; equals: unknown }
  /** The field is missing or holds anything else. */
  | { field: string; notEquals: unknown }
  /** The field holds one of these values. */
  | { field: string; anyOf: readonly unknown[] }
  /** The field is a string equal to this one ignoring case (ASCII). */
  | { field: string; equalsIgnoreCase: string }
  /**
   * The field is a number or string within the bounds, compared with bounds of its
   * own kind (numbers numerically, strings in code-point order); `from` and `to` are
   * inclusive, `before` exclusive. A value of another kind matches no bound.
   */
  | { field: string; range: { from?: unknown; to?: unknown; before?: unknown } };

/** Which records, in which order. Without `sort`, id ascending (= creation order). */
export interface Query {
  /** Every condition must hold. */
  where?: readonly Condition[];
  /** Sort keys in order of precedence; ties are broken by id in the first key's direction. */
  sort?: readonly SortKey[];
}

export interface PageQuery extends Query {
  /** Zero-based index of the first record of the page. */
  offset: number;
  limit: number;
}

export interface PageResult {
  items: StoredRecord[];
  /** Number of records matching the query across all pages. */
  total: number;
}

/**
 * A value now, or later. A store that answers from memory (the JSON-file store) gives
 * `get` and `page` at once: a page read then costs no promise and no turn of the
 * microtask queue. `await` takes either; `andThen` chains without waiting a turn.
 */
export type Eventually<T> = T | Promise<T>;

/** `next(value)`, at once when `value` is there already, else once it settles. */
export function andThen<T, U>(value: Eventually<T>, next: (settled: T) => Eventually<U>): Eventually<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** The reads both a store and a transaction offer. */
export interface StoreReader {
  /** The record, or undefined; may answer at once (see `Eventually`). */
  get(collection: CollectionName, id: RecordId): Eventually<StoredRecord | undefined>;
  /** The records of those ids that exist, in id order. */
  getMany(collection: CollectionName, ids: readonly RecordId[]): Promise<StoredRecord[]>;
  /** One page of the records matching the query; may answer at once (see `Eventually`). */
  page(collection: CollectionName, query: PageQuery): Eventually<PageResult>;
  /** Every matching record (mind the size: prefer `page` for what a client lists). */
  find(collection: CollectionName, query?: Query): Promise<StoredRecord[]>;
  count(collection: CollectionName, where?: readonly Condition[]): Promise<number>;
}

/**
 * The work of one transaction. Reads see the committed state plus this
 * transaction's own staged changes; on PostgreSQL the records a read returns stay
 * locked until the end (SELECT … FOR UPDATE), so what the work decides from them
 * still holds when it commits. Stage nothing outside `put`, `delete` and `clear`.
 */
export interface Transaction extends StoreReader {
  /** Reserves `count` new ids of a collection: increasing, never reused, even across processes. */
  allocateIds(collection: CollectionName, count: number): Promise<RecordId[]>;
  put(collection: CollectionName, record: StoredRecord): void;
  delete(collection: CollectionName, id: RecordId): void;
  /** Removes every record of every collection before this transaction's puts (admin reset). Id counters are kept. */
  clear(): void;
  /**
   * Takes a named lock for the rest of the transaction if no other transaction (of
   * any process) holds it; false when one does. For work only one process may do
   * at a time, such as a step of the task simulator.
   */
  tryLock(name: string): Promise<boolean>;
  /** Takes a named lock for the rest of the transaction, waiting while another transaction holds it. */
  lock(name: string): Promise<void>;
  /** Image bytes written by this transaction, when the store keeps them (PostgreSQL); absent for the JSON-file store. */
  readonly blobs?: TransactionBlobs;
}

/** How the store is doing, for `/_admin/health`. */
export interface StoreHealth {
  backend: 'json-file' | 'postgres';
  /** `ok`, or `unavailable` when the store cannot be reached now (the server answers 503 meanwhile). */
  state: 'ok' | 'unavailable';
  /** What went wrong when unavailable (no secrets: connection strings are masked). */
  problem?: string;
  /** PostgreSQL: the connection pool of this process: its size (`--store-pool-size`), connections open, idle, and requests waiting for one. */
  pool?: { max: number; open: number; idle: number; waiting: number };
}

/**
 * Bytes by their sha-256 (image files), for a store shared by several processes
 * that need not share a disk. The JSON-file store has none: its server keeps the
 * bytes in the data folder.
 *
 * Bytes live exactly as long as an image record refers to their hash, and that
 * is kept by the store itself, in the transactions that change the records: they
 * are written with the image record that refers to them (`Transaction.blobs.put`,
 * so a failed or killed upload leaves none), and removed by the transaction that
 * deletes (or replaces, or resets away) the last record referring to them. No
 * moment exists between a delete and its release, so nothing is ever orphaned.
 */
export interface BlobStore {
  get(sha256: string): Promise<Buffer | undefined>;
}

/** Image bytes written within a transaction (see `BlobStore`). */
export interface TransactionBlobs {
  /** Keeps the bytes, committed or rolled back with the transaction (nothing happens when that hash is kept already). */
  put(sha256: string, bytes: Buffer): Promise<void>;
}

/**
 * Token buckets kept where every process sharing the store sees them (PostgreSQL),
 * so that a limit holds for all of them together. Absent where one process owns
 * the store (the JSON-file store): its buckets may live in that process.
 */
export interface SharedBuckets {
  /**
   * Takes one token from `bucket`, which holds at most `capacity` and regains
   * `perSecond` a second (starting full). Resolves 0 when one was taken, else the
   * seconds until one will be there.
   */
  take(bucket: string, capacity: number, perSecond: number): Promise<number>;
}

export interface Store extends StoreReader {
  readonly backend: StoreHealth['backend'];
  /** Where image bytes go when the store keeps them (PostgreSQL); absent for the JSON-file store. */
  readonly blobs?: BlobStore;
  /** Token buckets shared by every process on the store (PostgreSQL); absent for the JSON-file store. */
  readonly buckets?: SharedBuckets;
  /**
   * Runs `work` as one transaction and applies what it staged, all or nothing,
   * resolving once that is durable. A throw from `work` applies nothing. On
   * PostgreSQL a transaction that lost a deadlock or serialization race is run again.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  health(): Promise<StoreHealth>;
  /** Finishes what is under way and releases the data folder or connections. */
  close(): Promise<void>;
}
