/**
 * `snapshot.idx` (snapshot-index.ts) lets a start find the snapshot's records without
 * reading them; the snapshot's checksum is still verified, on a worker thread for a
 * large one (snapshot-check.ts). The index must list exactly what the snapshot holds,
 * be ignored whenever it is not whole or not that snapshot's, and never let a damaged
 * snapshot through.
 */
import { copyFile, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Change, FileTables } from '../../src/store/index.js';
import { snapshotChecksum } from '../../src/store/snapshot-check.js';
import { readSnapshotIndex } from '../../src/store/snapshot-index.js';
import type { SnapshotIdentity } from '../../src/store/snapshot-index.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

const INDEXES = { topics: ['service'] };

/** A closed data folder: a snapshot (with its index) of tasks, topics and a big id, some deleted. */
async function folder(tasks = 300, pad = ''): Promise<string> {
  const dir = await tempDir();
  const store = await openTestStore(dir, { indexes: INDEXES });
  await store.commit(
    Array.from(
      { length: tasks },
      (_, i) => ({ op: 'put', collection: 'tasks', record: { id: i + 1, n: i, note: i % 7 ? 'plain' : 'é ✓', ...(pad ? { pad } : {}) } }) as Change,
    ),
  );
  await store.commit([
    { op: 'delete', collection: 'tasks', id: 5 },
    { op: 'put', collection: 'topics', record: { id: 3, service: 'lease' } },
  ]);
  await closeTestStore(store);
  return dir;
}

function readAll(store: FileTables): object {
  return {
    tasks: [...store.all('tasks')],
    topics: store.findBy('topics', 'service', 'lease'),
    gets: [1, 5, 6, 150, 300, 301].map((id) => store.get('tasks', id)),
    page: store.page('tasks', { offset: 10, limit: 5, sort: [{ field: 'n', direction: 'desc' }] }),
    next: [store.allocateId('tasks'), store.allocateId('topics'), store.allocateId('images')],
  };
}

/** The same folder without its index: read line by line. */
async function withoutIndex(dir: string): Promise<string> {
  const copy = await tempDir();
  for (const file of ['snapshot.pla', 'journal.ndjson']) await copyFile(join(dir, file), join(copy, file));
  return copy;
}

async function identityOf(dir: string): Promise<SnapshotIdentity> {
  const text = await readFile(join(dir, 'snapshot.pla'), 'utf8');
  return {
    bytes: (await stat(join(dir, 'snapshot.pla'))).size,
    crc: (/#end ([0-9a-f]{8})\n$/.exec(text) as RegExpExecArray)[1] as string,
    header: text.slice(0, text.indexOf('\n')),
  };
}

describe('the snapshot index', () => {
  it("lists each record's id and where its JSON is in the snapshot, and a start through it reads what reading every line does", async () => {
    const dir = await folder();
    const slots = readSnapshotIndex(join(dir, 'snapshot.idx'), await identityOf(dir));
    expect(slots?.collections.filter(([, count]) => count > 0)).toEqual([
      ['tasks', 299],
      ['topics', 1],
    ]);
    const snapshot = await readFile(join(dir, 'snapshot.pla'));
    const lines = snapshot.toString('utf8').split('\n');
    const records = lines.filter((line) => /^\d+\t/.test(line));
    expect(Array.from(slots?.ids ?? [])).toEqual(records.map((line) => Number(line.slice(0, line.indexOf('\t')))));
    records.forEach((line, i) => {
      const json = snapshot.toString('utf8', slots?.starts[i], (slots?.starts[i] as number) + (slots?.lengths[i] as number));
      expect(json).toBe(line.slice(line.indexOf('\t') + 1));
    });
    const indexed = await openTestStore(dir, { indexes: INDEXES });
    const scanned = await openTestStore(await withoutIndex(dir), { indexes: INDEXES });
    expect(readAll(indexed)).toEqual(readAll(scanned));
    expect(indexed.get('tasks', 7)).toEqual({ id: 7, n: 6, note: 'plain' });
  });

  it('is ignored when it is not whole or not this snapshot’s: the snapshot is then read line by line', async () => {
    const dir = await folder();
    const expected = readAll(await openTestStore(await withoutIndex(dir), { indexes: INDEXES }));
    const index = await readFile(join(dir, 'snapshot.idx'));
    const other = await folder(200);
    const damaged = Buffer.from(index);
    damaged[damaged.length - 100] = (damaged[damaged.length - 100] as number) ^ 1;
    const cases: Record<string, Buffer> = {
      damaged,
      cut: index.subarray(0, index.length - 3),
      empty: Buffer.alloc(0),
      "another snapshot's": await readFile(join(other, 'snapshot.idx')),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const copy = await withoutIndex(dir);
      await writeFile(join(copy, 'snapshot.idx'), bytes);
      expect(readSnapshotIndex(join(copy, 'snapshot.idx'), await identityOf(copy)), name).toBeUndefined();
      const store = await openTestStore(copy, { indexes: INDEXES });
      expect(readAll(store), name).toEqual(expected);
      await closeTestStore(store);
    }
  });

  it('is replaced with each snapshot, and a snapshot too large to index (an id past 2^53) leaves none', async () => {
    const dir = await folder();
    const store = await openTestStore(dir, { indexes: INDEXES });
    await store.commit([{ op: 'put', collection: 'tasks', record: { id: 301, n: 'new' } }]);
    await closeTestStore(store);
    expect(readSnapshotIndex(join(dir, 'snapshot.idx'), await identityOf(dir))?.ids.at(299)).toBe(301);
    const big = await openTestStore(dir, { indexes: INDEXES });
    await big.commit([{ op: 'put', collection: 'tasks', record: { id: 2n ** 60n, n: 'big' } }]);
    await closeTestStore(big);
    await expect(stat(join(dir, 'snapshot.idx'))).rejects.toThrow(/ENOENT/);
    expect((await openTestStore(dir)).get('tasks', 2n ** 60n)).toEqual({ id: 2n ** 60n, n: 'big' });
  });
});

describe("the snapshot's checksum beside the index", () => {
  it('is the CRC-32 of the bytes asked for, on a worker thread as here', async () => {
    const dir = await folder();
    const path = join(dir, 'snapshot.pla');
    const bytes = await readFile(path);
    const handle = await open(path, 'r');
    try {
      for (const workerFrom of [0, Number.MAX_SAFE_INTEGER]) {
        expect(await snapshotChecksum(handle.fd, path, bytes.length - 20, workerFrom)).toBe(crc32(bytes.subarray(0, bytes.length - 20)));
      }
      // Another file at the same path by now: refused rather than checked in its place.
      await rm(path);
      await writeFile(path, bytes);
      await expect(snapshotChecksum(handle.fd, path, bytes.length, 0)).rejects.toThrow(/replaced/);
    } finally {
      await handle.close();
    }
  });

  it('refuses a damaged snapshot whose index is whole, a large one (checked on a worker thread) too', async () => {
    for (const [tasks, pad] of [
      [300, ''],
      [80_000, 'p'.repeat(200)],
    ] as const) {
      const dir = await folder(tasks, pad);
      const path = join(dir, 'snapshot.pla');
      const text = await readFile(path, 'utf8');
      if (tasks > 300) expect(text.length).toBeGreaterThan(16 << 20);
      // One digit of one record changed: the index still fits, only the checksum can tell.
      await writeFile(path, text.replace('\t{"id":150,"n":149,', '\t{"id":150,"n":148,'));
      await expect(openTestStore(dir, { indexes: INDEXES }), String(tasks)).rejects.toThrow(/snapshot\.pla: damaged: its checksum does not match/);
      await writeFile(path, text);
      expect((await openTestStore(dir, { indexes: INDEXES })).get('tasks', 150)).toEqual({ id: 150, n: 149, note: 'plain', ...(pad ? { pad } : {}) });
    }
  });
});
