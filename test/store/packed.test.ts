/**
 * Records read from the snapshot stay in the file until asked for (packed-records.ts).
 * The same data opened two ways — from a snapshot (records packed) and from a journal
 * alone (records parsed at start, as before) — must answer every read alike, before
 * and after writes that move, delete and add records, through sorted orders too.
 */
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJsonStore } from '../../src/store/index.js';
import type { Change, Condition, FileTables, SortKey, StoredRecord } from '../../src/store/index.js';
import { comparatorFor } from '../../src/store/record-order.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

const KINDS = ['LEASE', 'SALE', null, 'TRANSFER'];

function record(id: number): StoredRecord {
  const base: StoredRecord = { id, name: `record ${id}`, amount: (id * 37) % 101, owner: { level: id % 5 }, note: id % 7 === 0 ? 'tab\there ✓' : 'plain' };
  if (id % 11 !== 0) base.kind = KINDS[id % KINDS.length];
  // A record whose own `__proto__` field is data, not a prototype.
  return id % 50 === 0 ? { ...base, ...(JSON.parse('{"__proto__":{"polluted":true}}') as object) } : base;
}

/** Two stores on the same data: one from a snapshot (packed), one from the journal alone (parsed). */
async function twoWays(count: number): Promise<[FileTables, FileTables, string]> {
  const dir = await tempDir();
  const store = await openTestStore(dir, { compactAfterEntries: 1_000_000 });
  for (let start = 1; start <= count; start += 100) {
    await store.commit(Array.from({ length: 100 }, (_, i) => ({ op: 'put', collection: 'determinations', record: record(start + i) }) as Change));
  }
  const journalOnly = await tempDir();
  await copyFile(join(dir, 'journal.ndjson'), join(journalOnly, 'journal.ndjson'));
  await closeTestStore(store);
  return [await openTestStore(dir), await openTestStore(journalOnly), dir];
}

const SORTS: SortKey[][] = [
  [],
  [{ field: 'id', direction: 'desc' }],
  [{ field: 'amount', direction: 'desc' }],
  [
    { field: 'kind', direction: 'asc' },
    { field: 'amount', direction: 'asc' },
  ],
  [
    { field: 'owner.level', direction: 'desc' },
    { field: 'name', direction: 'asc' },
  ],
];

/** Pages worked out from every record (`all`, the id order) and the sort rule itself: what the kept orders must give. */
function expectedPages(store: FileTables): object {
  const all = [...store.all('determinations')];
  const pages = SORTS.flatMap((sort) => {
    const sorted = all.slice().sort(comparatorFor(sort));
    return [0, 37, 280].map((offset) => ({ items: sorted.slice(offset, offset + 20), total: all.length }));
  });
  const sales = all.filter((r) => r.kind === 'SALE').sort(comparatorFor([{ field: 'amount', direction: 'asc' }]));
  return { pages, filtered: { items: sales.slice(3, 13), total: sales.length } };
}

function readAll(store: FileTables): object {
  return {
    pages: SORTS.flatMap((sort) => [0, 37, 280].map((offset) => store.page('determinations', { offset, limit: 20, sort }))),
    filtered: store.page('determinations', { offset: 3, limit: 10, sort: [{ field: 'amount', direction: 'asc' }], where: (r) => r.kind === 'SALE' }),
    found: store.findBy('determinations', 'kind', 'LEASE').map((r) => r.id),
    gets: [1, 50, 150, 299, 300, 301, 999].map((id) => store.get('determinations', id)),
    count: store.count('determinations'),
    all: [...store.all('determinations')],
  };
}

describe('records left in the snapshot file', () => {
  it('answer every read as records parsed at start do, before and after writes, in sorted orders too', async () => {
    const [packed, parsed] = await twoWays(300);
    expect(packed.get('determinations', 150)).toEqual(record(150));
    expect(Object.hasOwn(packed.get('determinations', 50) as object, '__proto__')).toBe(true);
    expect(readAll(packed)).toEqual(readAll(parsed));
    expect(readAll(packed)).toMatchObject(expectedPages(packed));

    // Writes after the sorted orders exist: each order is kept up to date on both.
    const writes: Change[][] = [
      [{ op: 'put', collection: 'determinations', record: { ...record(10), amount: 1000, kind: 'SALE' } }],
      [{ op: 'delete', collection: 'determinations', id: 20 }],
      [{ op: 'put', collection: 'determinations', record: record(301) }],
      // 40 deletes in one commit: the batch path.
      Array.from({ length: 40 }, (_, i) => ({ op: 'delete', collection: 'determinations', id: 100 + i }) as Change),
      [{ op: 'put', collection: 'determinations', record: { ...record(299), owner: { level: -1 } } }],
    ];
    for (const changes of writes) {
      await packed.commit(changes);
      await parsed.commit(changes);
      expect(readAll(packed)).toEqual(readAll(parsed));
      expect(readAll(packed)).toMatchObject(expectedPages(packed));
    }
    expect(packed.count('determinations')).toBe(300 - 1 - 40 + 1);
  });

  it('are copied into the next snapshot by a compaction, and read back the same', async () => {
    const [packed, parsed, dir] = await twoWays(120);
    for (const store of [packed, parsed]) {
      await store.commit([
        { op: 'put', collection: 'determinations', record: record(121) },
        { op: 'delete', collection: 'determinations', id: 7 },
      ]);
    }
    await closeTestStore(packed); // compacts: packed records copied from the old snapshot into the new one
    const lines = (await readFile(join(dir, 'snapshot.pla'), 'utf8')).split('\n');
    expect(lines).toContain(`5\t${JSON.stringify(record(5))}`);
    expect(lines).toContain(`121\t${JSON.stringify(record(121))}`);
    expect(lines.some((line) => line.startsWith('7\t'))).toBe(false);
    expect(readAll(await openTestStore(dir))).toEqual(readAll(parsed));
  });

  it('filtered by strings, find what records parsed at start find, though a text that cannot match is not parsed', async () => {
    const dir = await tempDir();
    const journalOnly = await tempDir();
    const store = await openTestStore(dir);
    await store.commit(Array.from({ length: 300 }, (_, i) => ({ op: 'put', collection: 'determinations', record: record(i + 1) }) as Change));
    await copyFile(join(dir, 'journal.ndjson'), join(journalOnly, 'journal.ndjson'));
    await closeTestStore(store);
    const [packed, parsed] = [await openJsonStore({ dir, warn: () => {} }), await openJsonStore({ dir: journalOnly, warn: () => {} })];
    try {
      const filters: Condition[][] = [
        [{ field: 'kind', equals: 'SALE' }],
        [{ field: 'kind', anyOf: ['LEASE', 'TRANSFER'] }],
        // Its JSON text has an escape (\t) and a character past ASCII.
        [{ field: 'note', equals: 'tab\there ✓' }],
        // "SALE" is in many texts, as another field's value: the text passes, the record does not.
        [{ field: 'name', equals: 'SALE' }],
        [
          { field: 'kind', equals: 'SALE' },
          { field: 'amount', range: { from: 50 } },
        ],
      ];
      for (const where of filters) {
        const query = { where, offset: 2, limit: 5, sort: [{ field: 'amount', direction: 'desc' }] } as const;
        const expected = [...Array.from({ length: 300 }, (_, i) => record(i + 1))].filter((r) =>
          where.every((c) => ('equals' in c ? r[c.field] === c.equals : 'anyOf' in c ? c.anyOf.includes(r[c.field]) : (r[c.field] as number) >= 50)),
        );
        expect(await packed.count('determinations', where)).toBe(expected.length);
        expect(await packed.page('determinations', query)).toEqual(await parsed.page('determinations', query));
        expect(await packed.find('determinations', { where })).toEqual(expected);
      }
      expect(await packed.count('determinations', [{ field: 'name', equals: 'SALE' }])).toBe(0);
      expect(await packed.count('determinations', [{ field: 'note', equals: 'tab\there ✓' }])).toBe(42);
    } finally {
      await Promise.all([packed.close(), parsed.close()]);
    }
  });
});
