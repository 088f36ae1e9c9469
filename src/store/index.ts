/**
 * The JSON-file store: `openStore({ dir })` opens a data folder (snapshot + journal,
 * locked to this process). See docs/store.md for its files and guarantees.
 */
export { openStore } from './file-store.js';
export type { FileStoreOptions } from './file-store.js';
export { StoreCorruptError, StoreLockedError, StoreUnavailableError } from './errors.js';
export * from './types.js';
