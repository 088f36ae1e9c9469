/**
 * A new API key for a data folder with no server running on it: the way back when
 * no key that can administer keys is known any more (the first admin key is shown
 * once; a second `server start` elsewhere may have taken its environment). Only the
 * folder's owner may do it, and only while no server holds the folder (its lock).
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openStore } from '../store/open.js';
import { newKey, viewKey } from './auth.js';
import { ServerSetupError } from './errors.js';

/** What `pla server keys create --data DIR` asks for. */
export interface OfflineKeyRequest {
  dataDir: string;
  name: string;
  env: string;
  permissions: string[];
}

/** Files that say a folder holds a local server's data. */
const STORE_FILES = ['snapshot.json', 'journal.ndjson'];

async function checkOwnFolder(dir: string, uid: number | undefined): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new ServerSetupError(`--data ${dir} is not a folder`, { hint: 'name the data folder the server was started with (--data)' });
  if (uid !== undefined && info.uid !== uid) throw new ServerSetupError(`${dir} belongs to another user; only its owner may make keys for it`);
  const found = await Promise.all(
    STORE_FILES.map((file) =>
      stat(join(dir, file)).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (!found.includes(true))
    throw new ServerSetupError(`${dir} holds no local server data (no ${STORE_FILES.join(' or ')})`, {
      hint: 'pla server start --data DIR creates it, with an admin key',
    });
}

/**
 * Creates the key in the folder's store and returns it (shown once) with its
 * listing; `StoreLockedError` when a server runs on the folder.
 */
export async function createKeyOffline(request: OfflineKeyRequest) {
  const dir = resolve(request.dataDir);
  await checkOwnFolder(dir, process.getuid?.());
  const store = await openStore({ dir, indexes: { apiKeys: ['hash'] } });
  try {
    const created = await store.transaction((tx) => newKey(tx, { name: request.name, env: request.env, permissions: request.permissions }));
    return { secret: created.secret, key: viewKey(created.record) };
  } finally {
    await store.close();
  }
}
