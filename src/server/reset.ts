/**
 * The admin reset (`POST /_admin/reset`): every collection emptied, the API keys
 * put back and the demo data seeded again, in one transaction, so requests in
 * flight never find the keys gone and a crash during the reset leaves the old store
 * or the new one, never no keys. Then the image bytes no record refers to any more,
 * in a transaction of their own: an upload's transaction (its file placed, its record
 * stored) may come between the two, and its file must stay. Removing every file, as
 * the reset once did, took the bytes of such an upload and left its record.
 */
import type { Store, Transaction } from '../store/types.js';
import type { ImageFiles } from './image-files.js';

export async function resetStore(store: Store, images: ImageFiles, seed?: (tx: Transaction) => Promise<void>): Promise<void> {
  await store.transaction(async (tx) => {
    const keys = await tx.find('apiKeys');
    tx.clear();
    for (const record of keys) tx.put('apiKeys', record);
    if (seed) await seed(tx);
  });
  await store.transaction((tx) => images.releaseUnreferenced(async (sha256) => (await tx.count('images', [{ field: 'sha256', equals: sha256 }])) > 0));
}
