import { describe, expect, it } from 'vitest';
import { compareIds } from '../../src/contract/ids.js';
import type { Change, FileTables as Store } from '../../src/store/index.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

const USERS = ['ann', 'bob', 'cid'];

async function seeded(count: number): Promise<Store> {
  const store = await openTestStore(await tempDir(), { indexes: { notifications: ['forUserId'] } });
  const changes: Change[] = [];
  for (let i = 1; i <= count; i++) {
    const record = { id: store.allocateId('notifications'), forUserId: USERS[i % 3], priority: (i * 7) % 5, title: `n${i}` };
    changes.push({ op: 'put', collection: 'notifications', record });
  }
  await store.commit(changes);
  return store;
}

const ids = (store: Store, query: Parameters<Store['page']>[1]) => store.page('notifications', query).items.map((r) => r.id);

describe('pages, sorts and indexes', () => {
  it('pages in id order by default, with the total', async () => {
    const store = await seeded(50);
    expect(store.page('notifications', { offset: 10, limit: 3 })).toMatchObject({ total: 50 });
    expect(ids(store, { offset: 10, limit: 3 })).toEqual([11, 12, 13]);
    expect(ids(store, { offset: 48, limit: 5 })).toEqual([49, 50]);
    expect(ids(store, { offset: 60, limit: 5 })).toEqual([]);
    expect(ids(store, { offset: 0, limit: 3, sort: [{ field: 'id', direction: 'desc' }] })).toEqual([50, 49, 48]);
  });

  it('sorts by other fields, ties broken by id, and keeps the order right across writes', async () => {
    const store = await seeded(50);
    const byPriority = {
      offset: 0,
      limit: 50,
      sort: [
        { field: 'priority', direction: 'desc' as const },
        { field: 'title', direction: 'asc' as const },
      ],
    };
    const expected = () =>
      [...store.all('notifications')]
        .sort((a, b) => (b.priority as number) - (a.priority as number) || String(a.title).localeCompare(String(b.title)) || compareIds(a.id, b.id))
        .map((r) => r.id);
    expect(ids(store, byPriority)).toEqual(expected());
    // Writes after the sorted order was first built: an update that moves a record, a delete, a new record.
    await store.commit([
      { op: 'put', collection: 'notifications', record: { id: 7, forUserId: 'ann', priority: 9, title: 'moved' } },
      { op: 'delete', collection: 'notifications', id: 8 },
      { op: 'put', collection: 'notifications', record: { id: store.allocateId('notifications'), forUserId: 'bob', priority: 0, title: 'a' } },
    ]);
    expect(ids(store, byPriority)).toEqual(expected());
    expect(ids(store, byPriority)[0]).toBe(7);
  });

  it('breaks ties by id in the direction of the first key, missing values first when descending', async () => {
    const store = await seeded(20);
    const newestFirst = { offset: 0, limit: 100, sort: [{ field: 'priority', direction: 'desc' as const }] };
    const expected = () =>
      [...store.all('notifications')]
        .sort((a, b) => {
          const missing = Number(b.priority === undefined) - Number(a.priority === undefined);
          return missing || (b.priority as number) - (a.priority as number) || compareIds(b.id, a.id);
        })
        .map((r) => r.id);
    expect(ids(store, newestFirst)).toEqual(expected());
    // New records after the order is cached, some without the field at all.
    for (let i = 0; i < 6; i++) {
      const record = { id: store.allocateId('notifications'), ...(i % 2 === 0 ? { priority: i } : {}) };
      await store.commit([{ op: 'put', collection: 'notifications', record }]);
    }
    await store.commit([{ op: 'delete', collection: 'notifications', id: 3 }]);
    expect(ids(store, newestFirst)).toEqual(expected());
    expect(ids(store, { ...newestFirst, sort: [{ field: 'priority', direction: 'asc' }] })).toEqual(expected().reverse());
  });

  it('pages one user through the equality index, and filters with where', async () => {
    const store = await seeded(30);
    const bob = store.findBy('notifications', 'forUserId', 'bob');
    expect(bob.map((r) => r.id)).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
    const page = store.page('notifications', { offset: 2, limit: 3, index: { field: 'forUserId', value: 'bob' } });
    expect(page).toMatchObject({ total: 10 });
    expect(page.items.map((r) => r.id)).toEqual([7, 10, 13]);
    const newest = { offset: 0, limit: 2, index: { field: 'forUserId', value: 'bob' }, sort: [{ field: 'id', direction: 'desc' as const }] };
    expect(ids(store, newest)).toEqual([28, 25]);
    const filtered = store.page('notifications', {
      offset: 1,
      limit: 2,
      index: { field: 'forUserId', value: 'bob' },
      where: (r) => r.priority === 2,
    });
    const all = bob.filter((r) => r.priority === 2).map((r) => r.id);
    expect(filtered.total).toBe(all.length);
    expect(filtered.items.map((r) => r.id)).toEqual(all.slice(1, 3));
    // Moving a record to another user moves it between index groups.
    await store.commit([{ op: 'put', collection: 'notifications', record: { id: 4, forUserId: 'ann' } }]);
    expect(store.findBy('notifications', 'forUserId', 'bob').map((r) => r.id)).not.toContain(4);
    expect(store.findBy('notifications', 'forUserId', 'ann').map((r) => r.id)).toContain(4);
    // Unindexed fields still work, by a scan.
    expect(store.findBy('notifications', 'title', 'n3').map((r) => r.id)).toEqual([3]);
    await closeTestStore(store);
  });

  it('applies a commit of many deletes mixed with puts exactly as one by one, in every order and index', async () => {
    const store = await seeded(300);
    const sort = [{ field: 'priority', direction: 'asc' as const }];
    const bob = { field: 'forUserId', value: 'bob' };
    // Build the kept orders first, so the commit must keep them right.
    ids(store, { offset: 0, limit: 1, sort });
    ids(store, { offset: 0, limit: 1, sort, index: bob });
    const changes: Change[] = [];
    for (let id = 1; id <= 300; id += 2) changes.push({ op: 'delete', collection: 'notifications', id }); // 150 deletes
    changes.push({ op: 'put', collection: 'notifications', record: { id: 5, forUserId: 'bob', priority: 9, title: 'back again' } }); // delete, then put
    changes.push({ op: 'put', collection: 'notifications', record: { id: 301, forUserId: 'bob', priority: 1, title: 'new' } });
    changes.push({ op: 'delete', collection: 'notifications', id: 301 }); // put, then delete
    changes.push({ op: 'delete', collection: 'notifications', id: 999 }); // unknown: nothing
    await store.commit(changes);

    const left = [...store.all('notifications')];
    expect(left.map((r) => r.id)).toEqual([...Array.from({ length: 150 }, (_, i) => 2 * (i + 1)), 5].sort((a, b) => a - b));
    expect(store.count('notifications')).toBe(151);
    const byPriority = (records: typeof left) =>
      records
        .slice()
        .sort((a, b) => Number(a.priority) - Number(b.priority) || compareIds(a.id, b.id))
        .map((r) => r.id);
    expect(ids(store, { offset: 0, limit: 1000, sort })).toEqual(byPriority(left));
    const bobs = left.filter((r) => r.forUserId === 'bob');
    expect(store.findBy('notifications', 'forUserId', 'bob')).toEqual(bobs);
    expect(ids(store, { offset: 0, limit: 1000, sort, index: bob })).toEqual(byPriority(bobs));
    expect(store.get('notifications', 5)).toMatchObject({ title: 'back again' });
    expect(store.get('notifications', 301)).toBeUndefined();
  });

  it('sorts right after a commit of more puts than the kept orders take one by one', async () => {
    const store = await seeded(30);
    const sort = [{ field: 'priority', direction: 'desc' as const }];
    ids(store, { offset: 0, limit: 1, sort });
    const changes: Change[] = Array.from({ length: 1500 }, (_, i) => ({
      op: 'put' as const,
      collection: 'notifications' as const,
      record: { id: i < 10 ? i + 1 : store.allocateId('notifications'), forUserId: 'ann', priority: (i * 13) % 7 },
    }));
    await store.commit(changes);
    const expected = [...store.all('notifications')].sort((a, b) => Number(b.priority) - Number(a.priority) || compareIds(b.id, a.id)).map((r) => r.id);
    expect(ids(store, { offset: 0, limit: 5000, sort })).toEqual(expected);
  });

  it('keeps a sorted order of one index group right across writes into, out of and within it', async () => {
    const store = await seeded(40);
    const sort = [
      { field: 'priority', direction: 'desc' as const },
      { field: 'title', direction: 'asc' as const },
    ];
    const query = (user: string) => ({ offset: 0, limit: 100, index: { field: 'forUserId', value: user }, sort });
    const expected = (user: string) =>
      store
        .findBy('notifications', 'forUserId', user)
        // Missing values sort first when descending (priorities are 0–4).
        .sort((a, b) => Number(b.priority ?? 99) - Number(a.priority ?? 99) || String(a.title).localeCompare(String(b.title)) || compareIds(b.id, a.id))
        .map((r) => r.id);
    for (const user of USERS) expect(ids(store, query(user))).toEqual(expected(user));
    await store.commit([
      { op: 'put', collection: 'notifications', record: { id: 1, forUserId: 'bob', priority: 4, title: 'a' } }, // moves within bob
      { op: 'put', collection: 'notifications', record: { id: 4, forUserId: 'ann', priority: 0, title: 'z' } }, // bob → ann
      { op: 'put', collection: 'notifications', record: { id: 2, forUserId: 'bob', title: 'no priority' } }, // cid → bob
      { op: 'delete', collection: 'notifications', id: 7 }, // leaves bob
      { op: 'put', collection: 'notifications', record: { id: store.allocateId('notifications'), forUserId: 'bob', priority: 2, title: 'new' } },
    ]);
    for (const user of USERS) expect(ids(store, query(user))).toEqual(expected(user));
    expect(store.page('notifications', { ...query('bob'), offset: 1, limit: 2 })).toEqual({
      items: expected('bob')
        .slice(1, 3)
        .map((id) => store.get('notifications', id)),
      total: expected('bob').length,
    });
  });
});
