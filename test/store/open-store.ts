/** Opens stores on temporary folders and closes whatever a test left open. */
import { afterEach } from 'vitest';
import { openFileTables as openStore } from '../../src/store/index.js';
import type { FileStoreOptions, FileTables as Store } from '../../src/store/index.js';

const opened = new Set<Store>();

afterEach(async () => {
  await Promise.all([...opened].map((store) => store.close().catch(() => {})));
  opened.clear();
});

/** Opens a store on `dir`, silencing warnings unless `options.warn` is given. */
export async function openTestStore(dir: string, options: Partial<FileStoreOptions> = {}): Promise<Store> {
  const store = await openStore({ warn: () => {}, ...options, dir });
  opened.add(store);
  return store;
}

/** Closes a store a test opened (so `afterEach` need not). */
export async function closeTestStore(store: Store): Promise<void> {
  opened.delete(store);
  await store.close();
}
