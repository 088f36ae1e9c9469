/**
 * A kill -9 at each step of a compaction that replaces a snapshot and its index
 * (snapshot.ts `writeSnapshot`): the folder each step leaves, and the pairs no step
 * should leave (an old index beside a new snapshot, a new one beside the old), must
 * all start with exactly the records of the history, never a record the index
 * misplaces.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Change, FileTables } from '../../src/store/index.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

const all = (store: FileTables) => ({ tasks: [...store.all('tasks')], next: store.allocateId('tasks') });

describe('a kill -9 at each step of a compaction with snapshot.idx', () => {
  it('leaves a folder that starts with every record, whichever index lies beside the snapshot', async () => {
    const dir = await tempDir();
    const first = await openTestStore(dir);
    await first.commit(Array.from({ length: 300 }, (_, i) => ({ op: 'put', collection: 'tasks', record: { id: i + 1, n: i, s: 'é ✓' } }) as Change));
    await closeTestStore(first);
    const old = { snapshot: await readFile(join(dir, 'snapshot.pla')), index: await readFile(join(dir, 'snapshot.idx')) };

    const second = await openTestStore(dir);
    for (let id = 1; id <= 50; id++) await second.commit([{ op: 'put', collection: 'tasks', record: { id, n: `v2 ${'x'.repeat(id)}` } }]);
    await second.commit(Array.from({ length: 10 }, (_, i) => ({ op: 'delete', collection: 'tasks', id: 51 + i }) as Change));
    await second.commit(Array.from({ length: 100 }, (_, i) => ({ op: 'put', collection: 'tasks', record: { id: 301 + i, n: -i } }) as Change));
    const journal = await readFile(join(dir, 'journal.ndjson'));
    await closeTestStore(second);
    const next = { snapshot: await readFile(join(dir, 'snapshot.pla')), index: await readFile(join(dir, 'snapshot.idx')) };
    const expected = all(await openTestStore(dir));
    expect(expected.tasks).toHaveLength(390);

    const steps: Record<string, Record<string, Buffer>> = {
      'new files written, old index not yet removed': {
        'snapshot.pla': old.snapshot,
        'snapshot.idx': old.index,
        'snapshot.pla.tmp': next.snapshot,
        'snapshot.idx.tmp': next.index,
      },
      'old index removed': { 'snapshot.pla': old.snapshot, 'snapshot.pla.tmp': next.snapshot, 'snapshot.idx.tmp': next.index },
      'snapshot renamed': { 'snapshot.pla': next.snapshot, 'snapshot.idx.tmp': next.index },
      'index renamed': { 'snapshot.pla': next.snapshot, 'snapshot.idx': next.index },
      'an old index beside the new snapshot': { 'snapshot.pla': next.snapshot, 'snapshot.idx': old.index },
      'the new index beside the old snapshot': { 'snapshot.pla': old.snapshot, 'snapshot.idx': next.index },
    };
    for (const [step, files] of Object.entries(steps)) {
      const copy = await tempDir();
      await writeFile(join(copy, 'journal.ndjson'), journal);
      for (const [name, bytes] of Object.entries(files)) await writeFile(join(copy, name), bytes);
      const store = await openTestStore(copy);
      expect(all(store), step).toEqual(expected);
      await closeTestStore(store);
    }
    // and the folder the compaction finished: its journal emptied
    const done = await tempDir();
    for (const name of ['snapshot.pla', 'snapshot.idx', 'journal.ndjson']) await copyFile(join(dir, name), join(done, name));
    expect(all(await openTestStore(done))).toEqual(expected);
  });
});
