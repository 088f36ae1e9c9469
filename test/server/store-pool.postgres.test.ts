/**
 * The PostgreSQL store's pool size: `pla server start --store-pool-size N` (default
 * 10) is how many connections one server process opens at most. Through the built
 * CLI (the size reaches the pool: `/_admin/health` reports it; a bad value is a
 * clear error) and through the store against a real PostgreSQL (a third
 * transaction waits for one of two connections rather than opening a third).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { eventually } from '../support/eventually.js';
import { startLocalServer } from '../support/local-server.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';

let postgres: TestPostgres;

beforeAll(async () => {
  postgres = await startTestPostgres();
}, 120_000);

afterAll(async () => {
  await postgres?.cluster.close();
});

describe('--store-pool-size', () => {
  it('reaches the pool: /_admin/health reports it', async () => {
    const server = await startLocalServer({ storeUrl: await postgres.createDatabase(), seed: false, args: ['--store-pool-size', '3'] });
    try {
      const health = await server.http('GET', '/_admin/health');
      expect(health.body).toMatchObject({ store: { backend: 'postgres', state: 'ok', pool: { max: 3 } } });
    } finally {
      await server.stop();
    }
  });

  it('the default is 10', async () => {
    const server = await startLocalServer({ storeUrl: await postgres.createDatabase(), seed: false });
    try {
      expect((await server.http('GET', '/_admin/health')).body).toMatchObject({ store: { pool: { max: 10 } } });
    } finally {
      await server.stop();
    }
  });

  it.each(['0', '-1', '2.5', 'ten', '100001', '1e2', '0x10', '10.0', ' 10'])(
    'refuses %s with a clear error (digits only), before touching the database',
    async (value) => {
      await expect(startLocalServer({ storeUrl: await postgres.createDatabase(), args: ['--store-pool-size', value] })).rejects.toThrow(
        `--store-pool-size must be a whole number from 1 to 1000, got ${value}`,
      );
    },
  );

  it('holds at most that many connections: a third transaction waits for one of two', async () => {
    const url = await postgres.createDatabase();
    const database = new URL(url).pathname.slice(1);
    const store = await openPostgresStore({ url, maxConnections: 2, connectTimeoutMs: 120_000 });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext('pool-test'))`);
      const finished: number[] = [];
      const work = [1, 2, 3].map((n) =>
        store.transaction(async (tx) => {
          await tx.lock('pool-test');
          finished.push(n);
        }),
      );
      const serverConnections = async (where = '') =>
        Number(
          (
            await postgres.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'pla-server' ${where}`, [
              database,
            ])
          )[0]?.n,
        );
      await eventually(async () => (await serverConnections(`AND wait_event_type = 'Lock'`)) === 2);
      expect(await serverConnections()).toBe(2);
      expect(finished).toEqual([]);
      await holder.query(`SELECT pg_advisory_unlock(hashtext('pool-test'))`);
      await Promise.all(work);
      expect(finished.sort()).toEqual([1, 2, 3]);
    } finally {
      await holder.end();
      await store.close();
    }
  });
});
