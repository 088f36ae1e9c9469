import { open, rm } from 'node:fs/promises';

/**
 * Makes a rename or a newly created file in `dir` durable: without this, a power loss
 * can forget the rename even though the renamed file's bytes were fsynced.
 */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Removes a temporary file an interrupted compaction left behind, saying so. It is
 * never needed: the file it would have replaced is still complete.
 */
export async function removeLeftover(path: string, warn: (message: string) => void): Promise<void> {
  try {
    await rm(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  warn(`store: removed ${path}, left over from an interrupted compaction (nothing was lost)`);
}
