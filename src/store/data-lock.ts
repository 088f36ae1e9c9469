import { readFileSync } from 'node:fs';
import { readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { StoreLockedError } from './errors.js';

const LOCK_DIR = 'store.lock';
const LOCK_OWNER_FILE = 'lock-owner.json';

/** Who holds a data folder, as written next to the lock by the holder. */
interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  /** The lock directory's inode, so an owner file left by an earlier holder is not mistaken for the current one. */
  lockInode: number;
}

/** A held data-folder lock. */
export interface DataLock {
  /** False once the lock was lost (another process took it over): stop writing. */
  held(): boolean;
  release(): Promise<void>;
}

/**
 * True when `pid` runs on this machine. A process that ended but that its parent has
 * not reaped yet (a zombie: `Z` in /proc/<pid>/stat) still answers `kill 0`, yet it
 * holds nothing: it counts as ended, so its lock is taken over at once rather than
 * after the 10 s staleness period.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** The process state letter of /proc/<pid>/stat is `Z` (Linux; elsewhere there is no /proc and this says no). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) S …`: comm may hold spaces and parentheses, so read after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

async function readOwner(dir: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(join(dir, LOCK_OWNER_FILE), 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string') return undefined;
    return owner as LockOwner;
  } catch {
    return undefined;
  }
}

async function lockInode(dir: string): Promise<number | undefined> {
  try {
    return (await stat(join(dir, LOCK_DIR))).ino;
  } catch {
    return undefined;
  }
}

function describe(owner: LockOwner | undefined): string {
  return owner === undefined
    ? 'another process (its owner file is missing; it may be starting)'
    : `process ${owner.pid} on ${owner.host}, started ${owner.startedAt}`;
}

/**
 * Takes the data folder for this process, so only one server writes it. The lock is a
 * proper-lockfile directory kept fresh while held (a lock left by a crashed holder on
 * another host goes stale after 10 s); `lock-owner.json` beside it names the holder.
 * A lock whose holder ran on this host and is no longer running is taken over at once.
 * Throws `StoreLockedError` naming the holder otherwise. `onLost` hears when the lock
 * is lost (proper-lockfile's `onCompromised`): what memory holds may be stale from then on.
 */
export async function acquireDataLock(dir: string, warn: (message: string) => void, onLost?: (problem: string) => void): Promise<DataLock> {
  let compromised = false;
  const options = {
    lockfilePath: join(dir, LOCK_DIR),
    realpath: false,
    onCompromised: (error: Error) => {
      compromised = true;
      warn(`store: lost the lock on ${dir} (${error.message}); another process may now write it`);
      onLost?.(`the store lost its lock on ${dir}: another process may now write it; restart the server`);
    },
  };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const owner = await readOwner(dir);
    const inode = await lockInode(dir);
    const stale = owner !== undefined && owner.host === hostname() && owner.lockInode === inode && !isRunning(owner.pid);
    if (!stale) {
      throw new StoreLockedError(`data folder ${dir} is in use by ${describe(owner)}`, {
        hint: 'stop that server first, or start this one with another data folder',
      });
    }
    warn(`store: taking over the lock on ${dir} from process ${owner.pid}, which is no longer running`);
    await rmdir(join(dir, LOCK_DIR)).catch(() => {});
    release = await lockfile.lock(dir, options);
  }
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    lockInode: (await lockInode(dir)) ?? 0,
  };
  await writeFile(join(dir, LOCK_OWNER_FILE), `${JSON.stringify(owner)}\n`);
  return {
    held: () => !compromised,
    async release() {
      // A lost lock and its owner file belong to whoever took it over.
      if (compromised) return;
      await rm(join(dir, LOCK_OWNER_FILE), { force: true });
      await release();
    },
  };
}
