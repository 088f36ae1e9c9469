/**
 * Issue 26 item 5 on PostgreSQL, with no flags: a keyed write whose client leaves
 * while the server looks its Idempotency-Key up frees the key. The lookup is held on
 * a table lock the test takes, so the client surely leaves before its body is read.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableOf } from '../../src/store/postgres/schema.js';
import { eventually } from '../support/eventually.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { usePostgresStore } from '../support/postgres.js';
import { abandonKeyedWrite, countRecords, DET } from './abuse-support.js';

const postgres = usePostgresStore();

describe('a keyed write whose client leaves before its body came, on PostgreSQL', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({ seed: false });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('frees its Idempotency-Key: a retry with the same key is carried out, once', async () => {
    const url = server.storeUrl ?? '';
    const locker = new pg.Client({ connectionString: url });
    locker.on('error', () => undefined);
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${tableOf('idempotencyKeys')} IN ACCESS EXCLUSIVE MODE`);
      await abandonKeyedWrite(server, 'wedge-pg', async () => {
        // The server is looking the key up, held on the lock, when its client leaves.
        const waiting = async () =>
          (await postgres.current().query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'", [], url))[0]?.n;
        await eventually(async () => (await waiting()) === 1, 30_000);
      });
      // A request answered after the client left: the server has seen it go.
      expect((await server.http('GET', '/', { key: null })).status).toBe(200);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    await eventually(async () => server.stderr().includes('went away before its request body was complete'), 30_000);
    const retry = await server.http('POST', DET, { body: { code: 'W-PG' }, headers: { 'idempotency-key': 'wedge-pg' } });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await countRecords(server)).toBe(1);
  });
});
