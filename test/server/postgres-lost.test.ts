/**
 * The shared stub survives its database: two server processes on one PostgreSQL
 * under write load, the database stopped abruptly (immediate shutdown: sessions cut
 * in the middle of transactions, as a crash), then started again. Both servers keep
 * running, answer 503 with Retry-After meanwhile, serve again once it is back
 * without a restart, and every write they acknowledged is in the database, whole.
 * And the rate limit, kept in the database, holds for both servers together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const BATCH = 20;

let postgres: TestPostgres;
let storeUrl: string;
let servers: LocalServer[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
  storeUrl = await postgres.createDatabase();
  const first = await startLocalServer({ storeUrl, seed: false });
  servers = [first, await startLocalServer({ storeUrl, seed: false, configDir: first.configDir })];
}, 120_000);

afterAll(async () => {
  for (const server of [...servers].reverse()) await server.stop().catch(() => {});
  await postgres?.cluster.close();
});

/** Whether the process `pid` is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('PostgreSQL lost under write load from two servers', () => {
  it('503 with Retry-After while it is down, both servers serve again after, every acknowledged write present', async () => {
    const acknowledged: string[] = [];
    const unavailable = new Map<number, string | undefined>();
    const otherStatuses: number[] = [];
    let writing = true;
    const lane = async (server: number, lane: number) => {
      for (let n = 0; writing; n++) {
        const batch = `lost-${server}-${lane}-${n}`;
        const body = Array.from({ length: BATCH }, (_, i) => ({ code: `${batch}-${i}`, batch }));
        const reply = await servers[server]!.http('POST', `${DET}/bulk`, { body }).catch(() => undefined);
        if (reply === undefined) continue; // a connection cut: neither acknowledged nor refused
        if (reply.status === 200) acknowledged.push(batch);
        else if (reply.status === 503) unavailable.set(server, reply.headers['retry-after']);
        else otherStatuses.push(reply.status);
        if (reply.status === 503) await new Promise((done) => setTimeout(done, 100));
      }
    };
    const lanes = [0, 1].flatMap((server) => [0, 1, 2].map((n) => lane(server, n)));

    await eventually(async () => acknowledged.length >= 30);
    const before = acknowledged.length;
    await postgres.cluster.stop({ immediate: true });
    // Both answer 503 with Retry-After, and neither process ended.
    await eventually(async () => unavailable.has(0) && unavailable.has(1));
    for (const retryAfter of unavailable.values()) expect(retryAfter).toMatch(/^\d+$/);
    for (const server of servers) {
      expect(alive(server.pid())).toBe(true);
      expect((await server.http('GET', '/_admin/health')).status).toBe(503);
    }

    await postgres.cluster.start();
    const afterRestart = acknowledged.length;
    // Writes are acknowledged again through both, without a restart of either.
    await eventually(async () => acknowledged.filter((batch) => batch.startsWith('lost-0-')).length > 0 && acknowledged.length > afterRestart + 10, 90_000);
    await eventually(async () => (await servers[1]!.http('GET', '/_admin/health')).status === 200, 90_000);
    writing = false;
    await Promise.all(lanes);
    expect(acknowledged.length).toBeGreaterThan(before);
    expect(acknowledged.some((batch) => batch.startsWith('lost-1-') && acknowledged.indexOf(batch) >= afterRestart)).toBe(true);
    for (const server of servers) expect(alive(server.pid())).toBe(true);
    expect(otherStatuses).toEqual([]);

    // Every acknowledged batch is there, whole; no batch is there in part.
    const rows = await postgres.query<{ batch: string; n: string }>(
      `SELECT record->>'batch' AS batch, count(*) AS n FROM determinations WHERE record ? 'batch' GROUP BY 1`,
      [],
      storeUrl,
    );
    const stored = new Map(rows.map((row) => [row.batch, Number(row.n)]));
    for (const batch of acknowledged) expect(stored.get(batch), batch).toBe(BATCH);
    for (const [batch, n] of stored) expect(n, `${batch} is whole`).toBe(BATCH);
  });
});

describe('--rate-limit shared by every server on the database', () => {
  it('two servers with --rate-limit 5 let through what one would, together', async () => {
    const url = await postgres.createDatabase();
    const first = await startLocalServer({ storeUrl: url, seed: false, args: ['--rate-limit', '5'] });
    const second = await startLocalServer({ storeUrl: url, seed: false, configDir: first.configDir, args: ['--rate-limit', '5'] });
    try {
      const started = performance.now();
      const replies = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 ? second : first).http('GET', '/api/topics/lease').then((reply) => ({ server: i % 2, reply }))),
      );
      const seconds = (performance.now() - started) / 1000;
      const ok = replies.filter(({ reply }) => reply.status === 200).length;
      // A burst of 5 and 5 a second for the time the requests took, for both servers together
      // (per process it would be twice that); at least the burst.
      expect(ok).toBeGreaterThanOrEqual(5);
      expect(ok, `${ok} answered in ${seconds.toFixed(2)} s`).toBeLessThanOrEqual(5 + Math.ceil(5 * seconds));
      for (const server of [0, 1]) {
        const limited = replies.filter((r) => r.server === server && r.reply.status === 429);
        expect(limited.length, `server ${server}`).toBeGreaterThan(0);
        expect(limited[0]?.reply.headers['retry-after']).toMatch(/^\d+$/);
      }
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
