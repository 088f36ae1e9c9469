/** Temporary data folders for store tests, removed after each test file. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A new empty folder under the system temp folder. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pla-store-'));
  made.push(dir);
  return dir;
}
