/**
 * A full disk while a compaction writes `snapshot.idx` (after the snapshot itself was
 * written): the snapshot still replaces the old one, without an index, and the next
 * start reads it line by line and holds every record. The folder lives on a small
 * tmpfs the test mounts and fills (skipped where mounting is not allowed).
 */
import { mkdir, mkdtemp, readdir, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../src/store/index.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

let mountPoint: string;
let mounted = false;

beforeAll(async () => {
  mountPoint = await mkdtemp(join(tmpdir(), 'pla-index-disk-'));
  mounted = (await execa('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint], { reject: false })).exitCode === 0;
});

afterAll(async () => {
  if (mounted) await execa('umount', [mountPoint], { reject: false });
  await rm(mountPoint, { recursive: true, force: true });
});

const RECORDS = 60_000;
const changes = Array.from({ length: RECORDS }, (_, i) => ({ op: 'put', collection: 'tasks', record: { id: i + 1 } }) as Change);

/** A folder whose journal holds the records, closed (it compacts on close) or not. */
async function filled(dir: string, close: boolean) {
  const store = await openTestStore(dir);
  await store.commit(changes);
  if (close) await closeTestStore(store);
  return store;
}

describe('a full disk while the snapshot index is written', () => {
  it('leaves the new snapshot without an index, and the next start holds every record', async (context) => {
    if (!mounted) context.skip();
    // The sizes a compaction of these records writes, learned on an ordinary folder.
    const probe = await tempDir();
    await filled(probe, true);
    const snapshotBytes = (await stat(join(probe, 'snapshot.pla'))).size;
    const indexBytes = (await stat(join(probe, 'snapshot.idx'))).size;
    expect(indexBytes).toBeGreaterThan(1 << 20);

    const dir = join(mountPoint, 'data');
    await mkdir(dir);
    const store = await filled(dir, false);
    // Room for the snapshot, and half the index.
    const { bavail, bsize } = await statfs(mountPoint);
    const free = Number(bavail) * Number(bsize);
    await writeFile(join(mountPoint, 'filler'), Buffer.alloc(free - snapshotBytes - Math.floor(indexBytes / 2)));
    await closeTestStore(store);
    expect(await readdir(dir)).not.toContain('snapshot.idx.tmp');
    const index = await stat(join(dir, 'snapshot.idx')).catch(() => undefined);
    // Either no index, or one that is not whole (and so ignored).
    expect(index === undefined || index.size < indexBytes).toBe(true);
    expect((await stat(join(dir, 'snapshot.pla'))).size).toBe(snapshotBytes);

    await rm(join(mountPoint, 'filler'));
    const again = await openTestStore(dir);
    expect(again.count('tasks')).toBe(RECORDS);
    expect([1, 2, 30_000, RECORDS].map((id) => again.get('tasks', id))).toEqual([{ id: 1 }, { id: 2 }, { id: 30_000 }, { id: RECORDS }]);
  }, 60_000);
});
