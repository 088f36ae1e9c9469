/**
 * The store behind the local server. The server computes what a request changes
 * and hands the store a list of `Change`s; the store applies them all or none,
 * makes them durable, and only then resolves. The store knows nothing of HTTP.
 *
 * Records returned by reads are the store's own objects: treat them as read-only
 * and build a new object to change one.
 */

/** A stored record. `id` is the store-wide identifier within its collection. */
export type StoredRecord = { id: number } & Record<string, unknown>;

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

/** One change of one request; a request's changes are applied together or not at all. */
export type Change =
  | { op: 'put'; collection: CollectionName; record: StoredRecord }
  | { op: 'delete'; collection: CollectionName; id: number };

export interface SortKey {
  field: string;
  direction: 'asc' | 'desc';
}

export interface PageQuery {
  /** Zero-based index of the first record of the page. */
  offset: number;
  limit: number;
  /** Sort keys in order of precedence; default is id ascending (= creation order). */
  sort?: readonly SortKey[];
  /** Only records whose indexed field equals the value (see `StoreOptions.indexes`). */
  index?: { field: string; value: unknown };
  /** Further filter, applied after `index`. */
  where?: (record: StoredRecord) => boolean;
}

export interface PageResult {
  items: StoredRecord[];
  /** Number of records matching the query across all pages. */
  total: number;
}

export interface StoreOptions {
  /** Data folder; created when missing. */
  dir: string;
  /** Fields to keep an equality index on, per collection (e.g. notifications → forUserId). */
  indexes?: Partial<Record<CollectionName, readonly string[]>>;
  /** Warnings (torn journal tail, leftover temp files) go here; default stderr. */
  warn?: (message: string) => void;
}

export interface Store {
  get(collection: CollectionName, id: number): StoredRecord | undefined;
  page(collection: CollectionName, query: PageQuery): PageResult;
  /** Records whose indexed `field` equals `value`, in id order. */
  findBy(collection: CollectionName, field: string, value: unknown): StoredRecord[];
  /** Every record of a collection in id order. */
  all(collection: CollectionName): Iterable<StoredRecord>;
  count(collection: CollectionName): number;
  /**
   * Reserves the next identifier of a collection (increasing, never reused, also
   * across restarts once a change using it is committed).
   */
  allocateId(collection: CollectionName): number;
  /** Applies the changes atomically and resolves once they are durable. */
  commit(changes: readonly Change[]): Promise<void>;
  /**
   * Removes every record of every collection and then applies `changes` (admin reset:
   * the keys to keep, the seed data), as one entry: no reader and no crash ever sees
   * the store empty in between. Id counters are kept.
   */
  clear(changes?: readonly Change[]): Promise<void>;
  /** Flushes, compacts if useful, and releases the data folder. */
  close(): Promise<void>;
}
