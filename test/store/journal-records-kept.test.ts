/**
 * Records the journal put are left in the journal file at start (journal-frame.ts,
 * packed-records.ts) and read from it when asked for: they must read back exactly as
 * written after compactions renamed a new snapshot and journal over the files they
 * point into, while writes append and reads go on, and after a restart.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { StoredRecord } from '../../src/store/index.js';
import { frameEntry } from '../../src/store/journal-frame.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

const recordOf = (id: number, round = 0): StoredRecord => ({ id, n: id * 10 + round, text: `é ✓ 😀 "${id}"\t\\`, exact: 12345678901234567890n + BigInt(id) });

describe('records left in the journal file', () => {
  it('read back exactly through compactions, appends and reads meanwhile, and a restart', async () => {
    const dir = await tempDir();
    const expected = new Map<number, StoredRecord>();
    const lines: string[] = [];
    for (let id = 1; id <= 3_000; id++) {
      // Small records; every tenth holds a nested object.
      const record = id % 10 === 0 ? { id, n: id, nested: { a: [id, 'x'] } } : { id, n: id, s: `r${id}` };
      lines.push(frameEntry({ seq: id, changes: [{ op: 'put', collection: 'tasks', record }] }));
      expected.set(id, record);
    }
    await writeFile(join(dir, 'journal.ndjson'), `${lines.join('\n')}\n`);
    const store = await openTestStore(dir, { compactAfterEntries: 50 });
    const check = () => {
      for (const id of [1, 2, 10, 999, 1_500, 2_999, 3_000]) expect(store.get('tasks', id), String(id)).toEqual(expected.get(id));
      expect(store.page('tasks', { offset: 0, limit: 5, sort: [{ field: 'id', direction: 'asc' }] }).items).toEqual(
        [1, 2, 3, 4, 5].map((id) => expected.get(id)),
      );
    };
    check();
    // Enough commits for several compactions, each renaming files the records point into.
    for (let round = 1; round <= 6; round++) {
      await Promise.all(
        Array.from({ length: 60 }, (_, i) => {
          const id = 3_000 + round * 100 + i;
          const record = recordOf(id, round);
          expected.set(id, record);
          // Some replace or delete records that are still in the old journal file.
          const old = round * 200 + i;
          expected.delete(old);
          return store.commit([
            { op: 'put', collection: 'tasks', record },
            { op: 'delete', collection: 'tasks', id: old },
          ]);
        }),
      );
      check();
    }
    // Compactions run in the background: wait for one to have renamed the files (the
    // journal no longer starts at the first entry), however busy the machine, then read again.
    await vi.waitFor(async () => expect((await readFile(join(dir, 'journal.ndjson'), 'utf8')).includes('"seq":1,')).toBe(false), {
      timeout: 30_000,
      interval: 20,
    });
    check();
    expect([...store.all('tasks')]).toEqual([...expected.values()].sort((a, b) => Number(a.id) - Number(b.id)));
    await closeTestStore(store);
    const again = await openTestStore(dir);
    expect([...again.all('tasks')]).toEqual([...expected.values()].sort((a, b) => Number(a.id) - Number(b.id)));
  }, 60_000);
});
