/**
 * Files pla writes that hold records or keys (rejects, unknown-outcome files,
 * plans, receipts, checkpoints, the config) are its user's alone: created 0600,
 * in folders pla creates 0700. And pla never writes through a symbolic link where
 * it expects its own file: a link planted at `rejects.csv` or `config.json` would
 * send finance records or keys wherever it points. Writes open with O_NOFOLLOW
 * (the kernel refuses a link, no window between a check and the write); files
 * replaced by rename are checked first, since a rename would silently replace the
 * link. Either way the run stops and says which file.
 */
import { constants, lstatSync, mkdirSync } from 'node:fs';
import { UsageError } from '../errors.js';

/**
 * node:fs/promises, taken only when a file is written: the config store imports this
 * module on every run, and fs/promises brings readline with it (startup-modules test).
 */
const fsPromises = () => process.getBuiltinModule('node:fs/promises');

/** Mode of a file holding records or keys. */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of a folder pla creates for such files. */
export const PRIVATE_DIR_MODE = 0o700;

const { O_WRONLY, O_CREAT, O_TRUNC, O_APPEND, O_EXCL, O_NOFOLLOW } = constants;

/** Thrown when a file pla writes is a symbolic link (exit 2): pla does not write through it. */
export class SymlinkRefusedError extends UsageError {
  constructor(what: string, path: string, options?: { cause?: unknown }) {
    super(`${what} ${path} is a symbolic link: pla does not write through links`, {
      ...options,
      hint: 'remove the link, or name the real file',
    });
  }
}

/** `error` as a SymlinkRefusedError when opening with O_NOFOLLOW met a link (ELOOP); else as it is. */
function linkRefusal(error: unknown, what: string, path: string): unknown {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ELOOP' ? new SymlinkRefusedError(what, path, { cause: error }) : error;
}

/** Throws SymlinkRefusedError when `path` is a symbolic link; nothing when it is anything else or absent. */
export function refuseSymlink(path: string, what: string): void {
  try {
    if (lstatSync(path).isSymbolicLink()) throw new SymlinkRefusedError(what, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Creates `dir` (and missing parents) 0700; refuses it when it is a link. */
export function makePrivateDir(dir: string, what: string): void {
  refuseSymlink(dir, what);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Writes (or with `append`, adds to) a private file, never through a link. A new file is 0600. */
export async function writePrivateFile(path: string, data: string | Uint8Array, options: { what: string; append?: boolean }): Promise<void> {
  const flag = O_WRONLY | O_CREAT | O_NOFOLLOW | (options.append ? O_APPEND : O_TRUNC);
  try {
    await fsPromises().writeFile(path, data, { flag, mode: PRIVATE_FILE_MODE });
  } catch (error) {
    throw linkRefusal(error, options.what, path);
  }
}

/**
 * Replaces a private file atomically: a new temporary file beside it (created, never
 * opened through a link), then a rename; refuses when `path` is a link.
 */
export async function replacePrivateFile(path: string, data: string, options: { what: string }): Promise<void> {
  const { lstat, rename, rm, writeFile } = fsPromises();
  if ((await lstat(path).catch(() => undefined))?.isSymbolicLink()) throw new SymlinkRefusedError(options.what, path);
  const temporary = `${path}.${process.pid}.tmp`;
  await rm(temporary, { force: true });
  try {
    await writeFile(temporary, data, { flag: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: PRIVATE_FILE_MODE });
  } catch (error) {
    throw linkRefusal(error, options.what, temporary);
  }
  await rename(temporary, path);
}
