import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '../../errors.js';

/**
 * Copies stdin to a temporary file (mode 0600) for input that must be read twice
 * (duplicate ids are decided before the first record is sent); `remove` deletes it.
 */
export async function spoolStdin(stdin: Readable | undefined): Promise<{ path: string; remove(): Promise<void> }> {
  if (!stdin) throw new UsageError('reading - (stdin) is not possible here');
  const dir = await mkdtemp(join(tmpdir(), 'pla-stdin-'));
  const path = join(dir, 'input');
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(stdin, createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    await remove();
    throw error;
  }
  return { path, remove };
}
