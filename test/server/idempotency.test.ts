/**
 * Kept Idempotency-Keys: a repeat gets the first reply back and changes nothing,
 * also after the store was closed and opened again (a restart) or the server was
 * killed; the key is written in the same commit as the write; failures keep
 * nothing; retention is bounded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_COLLECTION, IdempotencyKeys, SCOPE_FIELD, type Retention } from '../../src/server/idempotency.js';
import type { Reply } from '../../src/server/reply.js';
import { openJsonStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { tempDir } from '../store/temp-dirs.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const INDEXES = { [IDEMPOTENCY_COLLECTION]: [SCOPE_FIELD] };

function reply(status: number, body = ''): Reply {
  return { status, headers: { 'content-type': 'application/json' }, body };
}

/** A request that creates one task and answers `answer`, counting its runs. */
function createsTask(runs: { count: number }, answer: (id: number) => Reply = (id) => reply(201, `{"id":${id}}`)) {
  return async (store: Store): Promise<Reply> => {
    runs.count++;
    const id = await store.transaction(async (tx) => {
      const [allocated] = await tx.allocateIds('tasks', 1);
      tx.put('tasks', { id: allocated as number, status: 'PENDING' });
      return allocated as number;
    });
    return answer(id);
  };
}

const opened = new Set<Store>();
afterEach(async () => {
  await Promise.all([...opened].map((store) => store.close()));
  opened.clear();
});

async function open(dir: string, retention?: Retention) {
  const store = await openJsonStore({ dir, indexes: INDEXES, warn: () => {} });
  opened.add(store);
  return { store, keys: await IdempotencyKeys.open(store, retention) };
}

async function closeTestStore(store: Store): Promise<void> {
  opened.delete(store);
  await store.close();
}

describe('kept idempotency keys', () => {
  it('replays the first reply, after a restart too, and writes once', async () => {
    const dir = await tempDir();
    const runs = { count: 0 };
    let { store, keys } = await open(dir);
    const first = await keys.run('k1 POST /x a', createsTask(runs));
    expect(first.replayed).toBe(false);
    expect(await keys.run('k1 POST /x a', createsTask(runs))).toEqual({ reply: first.reply, replayed: true });
    await closeTestStore(store);

    ({ store, keys } = await open(dir));
    expect(await keys.run('k1 POST /x a', createsTask(runs))).toEqual({ reply: first.reply, replayed: true });
    expect(runs.count).toBe(1);
    expect(await store.count('tasks')).toBe(1);
    // Another key is another request.
    expect((await keys.run('k1 POST /x b', createsTask(runs))).replayed).toBe(false);
    expect(await store.count('tasks')).toBe(2);
  });

  it('writes the key in the same transaction as the changes, and nothing before the reply is known', async () => {
    const dir = await tempDir();
    const { store, keys } = await open(dir);
    let seenDuringRun = -1;
    let seenThroughView = -1;
    await keys.run('s', async (view) => {
      await createsTask({ count: 0 })(view);
      seenDuringRun = (await store.count('tasks')) + (await store.count(IDEMPOTENCY_COLLECTION));
      seenThroughView = await view.count('tasks');
      return reply(201);
    });
    expect(seenDuringRun).toBe(0);
    expect(seenThroughView).toBe(1);
    expect([await store.count('tasks'), await store.count(IDEMPOTENCY_COLLECTION)]).toEqual([1, 1]);
  });

  it('a 5xx applies nothing and keeps nothing; a request that changed nothing is not kept', async () => {
    const { store, keys } = await open(await tempDir());
    const runs = { count: 0 };
    expect(
      (
        await keys.run(
          'a',
          createsTask(runs, () => reply(500)),
        )
      ).reply.status,
    ).toBe(500);
    expect(await store.count('tasks')).toBe(0);
    expect((await keys.run('a', createsTask(runs))).replayed).toBe(false);
    expect(await store.count('tasks')).toBe(1);

    const refused = async () => {
      runs.count++;
      return reply(400, '{"title":"bad"}');
    };
    await keys.run('b', refused);
    expect((await keys.run('b', refused)).replayed).toBe(false);
    expect(runs.count).toBe(4);
  });

  it('a repeat that arrives while the first runs waits for it and runs nothing', async () => {
    const { store, keys } = await open(await tempDir());
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const runs = { count: 0 };
    const first = keys.run('k', async (staging) => {
      await gate;
      return createsTask(runs)(staging);
    });
    const second = keys.run('k', createsTask(runs));
    finish();
    const [a, b] = await Promise.all([first, second]);
    expect(b).toEqual({ reply: a.reply, replayed: true });
    expect(runs.count).toBe(1);
    expect(await store.count('tasks')).toBe(1);
  });

  it('keeps at most maxKeys, dropping the oldest from the store as well', async () => {
    const dir = await tempDir();
    const retention = { ttlMs: 60_000, maxKeys: 3, maxBytes: 1e9 };
    const { store, keys } = await open(dir, retention);
    const runs = { count: 0 };
    for (const key of ['1', '2', '3', '4']) await keys.run(key, createsTask(runs));
    expect(await store.count(IDEMPOTENCY_COLLECTION)).toBe(3);
    for (const key of ['2', '3', '4']) expect((await keys.run(key, createsTask(runs))).replayed).toBe(true);
    expect((await keys.run('1', createsTask(runs))).replayed).toBe(false);
    expect(runs.count).toBe(5);
  });

  it('keeps reply bytes within maxBytes and forgets keys older than ttlMs', async () => {
    const runs = { count: 0 };
    const big = (id: number) => reply(201, `{"id":${id},"pad":"${'x'.repeat(1000)}"}`);
    const bytes = await open(await tempDir(), { ttlMs: 60_000, maxKeys: 100, maxBytes: 2500 });
    for (const key of ['1', '2', '3']) await bytes.keys.run(key, createsTask(runs, big));
    expect(await bytes.store.count(IDEMPOTENCY_COLLECTION)).toBe(2);
    expect((await bytes.keys.run('1', createsTask(runs))).replayed).toBe(false);

    const aged = await open(await tempDir(), { ttlMs: 0, maxKeys: 100, maxBytes: 1e9 });
    await aged.keys.run('old', createsTask(runs));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await aged.keys.run('old', createsTask(runs))).replayed).toBe(false);
    // The expired key went in the commit of the new one.
    expect(await aged.store.count(IDEMPOTENCY_COLLECTION)).toBe(1);
  });
});

describe('Idempotency-Key through the local server', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('a create and an upsert without id replayed after kill -9 and restart: same answer, one record each', async () => {
    server = await startLocalServer({ seed: false });
    const tasks = '/api/v1/batch/mass-inter-company-transfer/tasks';
    const create = () =>
      server!.http('POST', '/api/v1/asset-transaction-type-determinations', { body: { code: 'once' }, headers: { 'idempotency-key': 'c-1' } });
    const upsert = () => server!.http('PUT', `${tasks}/createOrUpdate/bulk`, { body: [{ name: 'a' }, { name: 'b' }], headers: { 'idempotency-key': 'u-1' } });
    const [created, upserted] = [await create(), await upsert()];
    expect([created.status, upserted.status]).toEqual([200, 200]);

    await server.restart('SIGKILL');
    const [again, upsertedAgain] = [await create(), await upsert()];
    expect(again.text).toBe(created.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(upsertedAgain.text).toBe(upserted.text);
    const determinations = await server.http('GET', '/api/v1/asset-transaction-type-determinations');
    const taskPage = await server.http('GET', tasks);
    expect((determinations.body as { page: { totalElements: number } }).page.totalElements).toBe(1);
    expect((taskPage.body as { page: { totalElements: number } }).page.totalElements).toBe(2);
  });
});
