/**
 * Three server processes on one PostgreSQL database, as a team's shared stub runs:
 * a write through one is read at once through the others; concurrent cancels of
 * the same tasks spread over the three succeed exactly once each; a server killed
 * with SIGKILL in the middle of bulk writes loses no acknowledged write and leaves
 * no request half-applied; PostgreSQL stopping makes the servers answer 503 (and
 * not crash), and starting it again makes them serve again without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const TASKS = '/api/v1/batch/mass-inter-company-transfer/tasks';

let postgres: TestPostgres;
let storeUrl: string;
let servers: LocalServer[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
  storeUrl = await postgres.createDatabase();
  const first = await startLocalServer({ storeUrl });
  // The others share the first one's config folder: the admin key exists once, in the database.
  const others = await Promise.all([1, 2].map(() => startLocalServer({ storeUrl, configDir: first.configDir })));
  servers = [first, ...others];
}, 120_000);

afterAll(async () => {
  // The first server owns the shared config folder: stop it last.
  for (const server of [...servers].reverse()) await server.stop().catch(() => {});
  await postgres?.cluster.close();
});

describe('three server processes on one database', () => {
  it('seeded once, one admin key for all', async () => {
    for (const server of servers) {
      const health = await server.http('GET', '/_admin/health');
      expect(health.body).toMatchObject({ store: { backend: 'postgres', state: 'ok' }, records: { determinations: 6, tasks: 6 } });
    }
    const keys = await servers[2]!.http('GET', '/_admin/keys');
    expect((keys.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it('a write through one is read at once through the others', async () => {
    const [a, b, c] = servers as [LocalServer, LocalServer, LocalServer];
    const created = await a.http('POST', DET, { body: { code: 'shared-1', name: 'written through a' } });
    expect(created.status).toBe(200);
    const id = (created.body as { data: { id: number } }).data.id;
    for (const reader of [b, c]) {
      const read = await reader.http('GET', `${DET}/${id}`);
      expect(read.status).toBe(200);
      expect((read.body as { data: unknown }).data).toEqual((created.body as { data: unknown }).data);
    }
    const updated = await b.http('PUT', `${DET}/${id}`, { body: { name: 'updated through b' } });
    expect(updated.status).toBe(200);
    expect(((await c.http('GET', `${DET}/${id}`)).body as { data: { name: string } }).data.name).toBe('updated through b');
    // Ids keep increasing whichever process allocates them.
    const next = await c.http('POST', DET, { body: { code: 'shared-2' } });
    expect((next.body as { data: { id: number } }).data.id).toBeGreaterThan(id);
  });

  it('a POST retried with the same Idempotency-Key through another process is replayed, not run again', async () => {
    const [a, b] = servers as [LocalServer, LocalServer];
    const headers = { 'idempotency-key': 'shared-retry-1' };
    const first = await a.http('POST', DET, { body: { code: 'once' }, headers });
    const again = await b.http('POST', DET, { body: { code: 'once' }, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((again.body as { data: { id: number } }).data.id).toBe((first.body as { data: { id: number } }).data.id);
  });

  it('200 concurrent cancels of the same tasks over the three: each task cancelled exactly once, the rest 409', async () => {
    const made = await servers[0]!.http('PUT', `${TASKS}/createOrUpdate/bulk`, {
      body: Array.from({ length: 20 }, (_, i) => ({ contractNumber: `CC-${i}`, status: i % 2 ? 'RUNNING' : 'PENDING' })),
    });
    expect(made.status).toBe(200);
    const ids = (made.body as { data: Array<{ id: number }> }).data.map((task) => task.id);
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const id = ids[i % ids.length] as number;
        return servers[i % 3]!.http('POST', `${TASKS}/cancel/${id}`).then((reply) => ({ id, status: reply.status }));
      }),
    );
    for (const id of ids) {
      const statuses = replies.filter((reply) => reply.id === id).map((reply) => reply.status);
      expect(
        statuses.filter((status) => status < 300),
        `task ${id}: ${statuses.join(',')}`,
      ).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(statuses.length - 1);
    }
    for (const id of ids) {
      const task = (await servers[1]!.http('GET', `${TASKS}/${id}`)).body as { data: { status: string; cancelledAt?: string } };
      expect(task.data.status).toBe('CANCELLED');
      expect(task.data.cancelledAt).toBeTypeOf('string');
    }
  });

  it('kill -9 of a server during a stream of bulk writes: no acknowledged write lost, no request half-applied', async () => {
    const victim = await startLocalServer({ storeUrl, configDir: servers[0]!.configDir });
    const acknowledged: string[] = [];
    const sent: string[] = [];
    let stop = false;
    const writer = async (lane: number) => {
      for (let n = 0; !stop; n++) {
        const batch = `kill-${lane}-${n}`;
        sent.push(batch);
        const body = Array.from({ length: 50 }, (_, i) => ({ code: `${batch}-${i}`, batch }));
        const reply = await victim.http('POST', `${DET}/bulk`, { body }).catch(() => undefined);
        if (reply === undefined) return; // the process is gone
        if (reply.status === 200) acknowledged.push(batch);
      }
    };
    const lanes = [0, 1, 2, 3].map(writer);
    await eventually(async () => acknowledged.length >= 20);
    await victim.stop('SIGKILL');
    stop = true;
    await Promise.all(lanes);
    expect(victim.exitCode).not.toBe(0);

    const rows = await postgres.query<{ batch: string; n: string }>(
      `SELECT record->>'batch' AS batch, count(*) AS n FROM determinations WHERE record ? 'batch' GROUP BY 1`,
      [],
      storeUrl,
    );
    const stored = new Map(rows.map((row) => [row.batch, Number(row.n)]));
    for (const batch of acknowledged) expect(stored.get(batch), batch).toBe(50);
    for (const [batch, n] of stored) {
      expect(n, `${batch} is whole`).toBe(50);
      expect(sent).toContain(batch);
    }
    // The others still serve, and see what was committed.
    const health = await servers[1]!.http('GET', '/_admin/health');
    expect(health.status).toBe(200);
  });

  it('PostgreSQL stopping: 503 with Retry-After, no crash; started again: served again without a restart', async () => {
    await postgres.cluster.stop();
    for (const server of servers) {
      const read = await server.http('GET', `${DET}?size=5`);
      expect(read.status).toBe(503);
      expect(read.headers['retry-after']).toMatch(/^\d+$/);
      expect((read.body as { detail: string }).detail).toMatch(/unavailable/);
      const write = await server.http('POST', DET, { body: { code: 'while-down' } });
      expect(write.status).toBe(503);
      const health = await server.http('GET', '/_admin/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'unavailable', store: { backend: 'postgres', state: 'unavailable' } });
      // No password or key in what the health says.
      expect(health.text).not.toMatch(/pla_local_/);
    }
    await postgres.cluster.start();
    for (const server of servers) {
      await eventually(async () => (await server.http('GET', `${DET}?size=5`)).status === 200);
      const write = await server.http('POST', DET, { body: { code: 'after-restart' } });
      expect(write.status).toBe(200);
      expect((await server.http('GET', '/_admin/health')).status).toBe(200);
    }
    const [{ n }] = (await postgres.query<{ n: string }>(`SELECT count(*) AS n FROM determinations WHERE record->>'code' = 'while-down'`, [], storeUrl)) as [
      { n: string },
    ];
    expect(Number(n)).toBe(0);
  });
});
