import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Change, StoredRecord } from '../../src/store/index.js';
import { jsonText } from '../../src/json/json-text.js';
import { SNAPSHOT_FILE } from '../../src/store/snapshot.js';
import { parseJson } from '../../src/json/json-parse.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

function put(collection: Change['collection'], record: StoredRecord): Change {
  return { op: 'put', collection, record };
}

describe('store basics', () => {
  it('creates, reads, updates and deletes records, and keeps them across a restart', async () => {
    const dir = await tempDir();
    const store = await openTestStore(dir);
    const id = store.allocateId('determinations');
    await store.commit([put('determinations', { id, name: 'lease A', amount: 10 })]);
    expect(store.get('determinations', id)).toEqual({ id, name: 'lease A', amount: 10 });
    await store.commit([put('determinations', { id, name: 'lease A', amount: 12 })]);
    const other = store.allocateId('determinations');
    await store.commit([put('determinations', { id: other, name: 'lease B' })]);
    await store.commit([{ op: 'delete', collection: 'determinations', id: other }]);
    expect(store.count('determinations')).toBe(1);
    expect([...store.all('determinations')]).toEqual([{ id, name: 'lease A', amount: 12 }]);
    await closeTestStore(store);

    const reopened = await openTestStore(dir);
    expect(reopened.get('determinations', id)).toEqual({ id, name: 'lease A', amount: 12 });
    expect(reopened.get('determinations', other)).toBeUndefined();
  });

  it('keeps its own copy of a committed record', async () => {
    const store = await openTestStore(await tempDir());
    const record = { id: 1, tags: ['a'] };
    await store.commit([put('settings', record)]);
    record.tags.push('b');
    expect(store.get('settings', 1)).toEqual({ id: 1, tags: ['a'] });
  });

  it('applies all of a commit or none of it', async () => {
    const dir = await tempDir();
    const store = await openTestStore(dir);
    await store.commit([put('tasks', { id: 1, status: 'PENDING' })]);
    const bad = [
      put('tasks', { id: 1, status: 'RUNNING' }),
      put('tasks', { id: 2, status: 'PENDING' }),
      { op: 'put', collection: 'tasks', record: { name: 'no id' } } as unknown as Change,
    ];
    await expect(store.commit(bad)).rejects.toThrow(/change 2/);
    const cyclic: Record<string, unknown> = { id: 3 };
    cyclic.self = cyclic;
    await expect(store.commit([put('tasks', { id: 2 }), put('tasks', cyclic as StoredRecord)])).rejects.toThrow();
    await expect(store.commit([put('nope' as Change['collection'], { id: 9 })])).rejects.toThrow(/unknown collection/);
    expect(store.get('tasks', 1)).toEqual({ id: 1, status: 'PENDING' });
    expect(store.count('tasks')).toBe(1);
    await closeTestStore(store);
    expect((await openTestStore(dir)).count('tasks')).toBe(1);
  });

  it('never reuses an id, also across restarts and after deletes and clear', async () => {
    const dir = await tempDir();
    const store = await openTestStore(dir);
    const first = store.allocateId('notifications');
    const second = store.allocateId('notifications');
    expect(second).toBeGreaterThan(first);
    await store.commit([put('notifications', { id: second })]);
    await store.commit([{ op: 'delete', collection: 'notifications', id: second }]);
    // Allocated but never used: still not handed out again once a later commit recorded the counter.
    const unused = store.allocateId('notifications');
    await store.commit([put('settings', { id: 1 })]);
    await store.clear();
    expect(store.count('settings')).toBe(0);
    await closeTestStore(store);

    const reopened = await openTestStore(dir);
    expect(reopened.allocateId('notifications')).toBe(Number(unused) + 1);
    expect(reopened.allocateId('settings')).toBe(2);
    expect(reopened.allocateId('tasks')).toBe(1);
  });

  it('journals a clear durably', async () => {
    const dir = await tempDir();
    const store = await openTestStore(dir, { compactAfterEntries: 1_000_000 });
    await store.commit([put('topics', { id: 1 }), put('apiKeys', { id: 1 })]);
    await store.clear();
    // Read the journal before close: the clear must already be there.
    const lines = (await readFile(join(dir, 'journal.ndjson'), 'utf8')).trim().split('\n');
    expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({ clear: true });
  });

  it('clears and puts back what a reset keeps in one entry, also after a restart', async () => {
    const dir = await tempDir();
    const store = await openTestStore(dir, { compactAfterEntries: 1_000_000 });
    await store.commit([put('topics', { id: 1 }), put('apiKeys', { id: 1, name: 'admin' })]);
    const seeded = store.allocateId('topics');
    const clearing = store.clear([put('apiKeys', { id: 1, name: 'admin' }), put('topics', { id: seeded, code: 'seed' })]);
    // Applied at once, as one step: a reader never finds the keys gone.
    const emptySeen = store.count('apiKeys') === 0;
    await clearing;
    expect(emptySeen).toBe(false);
    const lines = (await readFile(join(dir, 'journal.ndjson'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({
      clear: true,
      changes: [
        { op: 'put', collection: 'apiKeys' },
        { op: 'put', collection: 'topics' },
      ],
    });
    await closeTestStore(store);

    const reopened = await openTestStore(dir);
    expect([...reopened.all('apiKeys')]).toEqual([{ id: 1, name: 'admin' }]);
    expect([...reopened.all('topics')]).toEqual([{ id: seeded, code: 'seed' }]);
  });

  it('refuses a clear whose changes are bad, and changes nothing', async () => {
    const store = await openTestStore(await tempDir());
    await store.commit([put('apiKeys', { id: 1 })]);
    await expect(store.clear([{ op: 'put', collection: 'apiKeys', record: { id: -1 } }])).rejects.toThrow(TypeError);
    expect(store.count('apiKeys')).toBe(1);
  });
});

describe('record keys that name Object.prototype members', () => {
  it('round-trips __proto__, constructor and prototype as plain data without polluting anything', async () => {
    const dir = await tempDir();
    const store = await openTestStore(dir, { indexes: { settings: ['constructor'] } });
    const record = JSON.parse('{"id":1,"__proto__":{"polluted":true,"id":99},"constructor":{"prototype":{"polluted":true}},"prototype":"x"}') as StoredRecord;
    await store.commit([put('settings', record), put('settings', { id: 2, name: 'plain' })]);
    const check = (read: StoredRecord | undefined) => {
      expect(read?.id).toBe(1);
      expect(Object.hasOwn(read ?? {}, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
      expect(JSON.stringify(read)).toBe(JSON.stringify(record));
    };
    check(store.get('settings', 1));
    // A record without the field must not match or sort by Object.prototype's.
    expect(store.findBy('settings', 'constructor', Object).map((r) => r.id)).toEqual([]);
    expect(store.findBy('settings', '__proto__', Object.prototype)).toEqual([]);
    const sorted = store.page('settings', { offset: 0, limit: 10, sort: [{ field: '__proto__', direction: 'asc' }] });
    expect(sorted.items.map((r) => r.id)).toEqual([1, 2]);
    await closeTestStore(store);

    const reopened = await openTestStore(dir, { indexes: { settings: ['constructor'] } });
    check(reopened.get('settings', 1));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('numbers past a double', () => {
  it('ids past 2^53 and exact amounts survive the journal, a compacted snapshot and a restart; the counter goes on past them', async () => {
    const dir = await tempDir();
    const amounts = (parseJson('[12345678901234567.89,123456789012345678901,1e400]') as unknown[]).map((amount) => ({ amount }));
    const store = await openTestStore(dir, { compactAfterEntries: 2 });
    // A record at 2^53 moves the counter past it (as an imported record would); it is deleted again.
    await store.commit([put('determinations', { id: 9007199254740992n, amount: 0 })]);
    await store.commit([{ op: 'delete', collection: 'determinations', id: 9007199254740992n }]);
    for (const fields of amounts) await store.commit([put('determinations', { id: store.allocateId('determinations'), ...fields })]);
    await store.commit([put('determinations', { id: store.allocateId('determinations'), amount: 1 })]);
    await closeTestStore(store);
    // Read back from the packed snapshot, not only the journal.
    expect(await readFile(join(dir, SNAPSHOT_FILE), 'utf8')).toContain('9007199254740995\t{"id":9007199254740995,"amount":1e400}');

    const reopened = await openTestStore(dir);
    const records = [...reopened.all('determinations')];
    expect(records.map((record) => jsonText(record))).toEqual([
      '{"id":9007199254740993,"amount":12345678901234567.89}',
      '{"id":9007199254740994,"amount":123456789012345678901}',
      '{"id":9007199254740995,"amount":1e400}',
      '{"id":9007199254740996,"amount":1}',
    ]);
    expect(reopened.get('determinations', 9007199254740994n)?.amount).toBe(123456789012345678901n);
    expect(reopened.allocateId('determinations')).toBe(9007199254740997n);
  });
});
