/**
 * Opens the store a server runs on: PostgreSQL when a `postgres://` URL is given,
 * else the JSON-file store of the data folder. The PostgreSQL backend (and `pg`) is
 * loaded only when asked for.
 */
import { openJsonStore } from './json-store.js';
import type { CollectionName, Store } from './types.js';

export interface OpenStoreOptions {
  /** `postgres://…` (or `postgresql://…`); without it, the JSON-file store in `dir`. */
  url?: string;
  /** Data folder of the JSON-file store. */
  dir: string;
  /** Equality indexes of the JSON-file store (PostgreSQL has its own, in the schema). */
  indexes?: Partial<Record<CollectionName, readonly string[]>>;
  /** The damaged journal line the JSON-file store starts before (`FileStoreOptions.dropJournalFrom`). */
  dropJournalFrom?: number;
  /** Connections at most to PostgreSQL. */
  maxConnections?: number;
  warn?: (message: string) => void;
  /** JSON-file store: called once if the data folder's lock is lost; what the store holds may be stale from then on. */
  onLockLost?: (problem: string) => void;
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.url === undefined)
    return openJsonStore({
      dir: options.dir,
      ...(options.indexes ? { indexes: options.indexes } : {}),
      ...(options.warn ? { warn: options.warn } : {}),
      ...(options.onLockLost ? { onLockLost: options.onLockLost } : {}),
      ...(options.dropJournalFrom ? { dropJournalFrom: options.dropJournalFrom } : {}),
    });
  const { openPostgresStore } = await import('./postgres/postgres-store.js');
  return openPostgresStore({
    url: options.url,
    ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
    ...(options.warn ? { warn: options.warn } : {}),
  });
}
