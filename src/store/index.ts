/**
 * The store behind the local server: `openJsonStore({ dir })` opens a data folder
 * (snapshot + journal, locked to this process); `openFileTables` is the same data
 * folder with synchronous reads, for tests and benchmarks. See docs/store.md.
 */
export { openJsonStore } from './json-store.js';
export { openFileTables } from './file-store.js';
export type { FileStoreOptions, FileTables } from './file-store.js';
export { StoreCorruptError, StoreError, StoreLockedError, StoreUnavailableError } from './errors.js';
export * from './types.js';
