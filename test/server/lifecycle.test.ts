/**
 * The server as a process: seed and --no-seed, the first admin key (printed once,
 * saved for env local), restart keeping everything acknowledged, a clean SIGTERM,
 * `pla server keys|health|log|reset`, idempotent POST replays, /openapi.json.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../store/temp-dirs.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const SET = '/api/v1/system-financial-settings';

const total = async (server: LocalServer, path: string) =>
  ((await server.http('GET', `${path}?size=1`)).body as { page: { totalElements: number } }).page.totalElements;

describe('start, seed, keys and shutdown', () => {
  it('seeds a fresh folder; --no-seed starts empty', async () => {
    const seeded = await startLocalServer();
    const empty = await startLocalServer({ seed: false });
    try {
      expect(await total(seeded, DET)).toBeGreaterThan(0);
      const statuses = (
        (await seeded.http('GET', '/api/v1/batch/mass-inter-company-transfer/tasks')).body as { content: Array<{ status: string }> }
      ).content.map((t) => t.status);
      expect(new Set(statuses)).toEqual(new Set(['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED']));
      expect(((await seeded.http('GET', '/api/notifications/bob/count')).body as { count: number }).count).toBeGreaterThan(0);
      expect((await empty.http('GET', '/_admin/health', { key: null })).body).toMatchObject({
        status: 'ok',
        records: { determinations: 0, settings: 0, tasks: 0, notifications: 0, topics: 0 },
      });
    } finally {
      await Promise.all([seeded.stop(), empty.stop()]);
    }
  });

  it('prints the first admin key once, saves it for env local, and keeps data and key across restarts', async () => {
    const dataDir = await tempDir('pla-data-');
    const server = await startLocalServer({ seed: false, dataDir });
    try {
      expect(server.stderr()).toContain(server.adminKey);
      const shown = await server.pla(['config', 'show', '-o', 'json']);
      expect(shown.stdout).toContain(server.url);
      expect(shown.stdout).not.toContain(server.adminKey);

      const made = await server.http('POST', `${DET}/bulk`, { body: [{ code: 'kept-1' }, { code: 'kept-2' }] });
      expect(made.status).toBe(200);
      await server.http('PUT', `${DET}/decommission/1`);
      const before = (await server.http('GET', DET)).body;

      await server.restart();
      expect(server.stderr()).not.toContain(server.adminKey);
      expect((await server.http('GET', DET)).body).toEqual(before);
      const listed = await server.pla(['determinations', 'list', '-o', 'json']);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('kept-2');
    } finally {
      await server.stop();
    }
  });

  /** A server on fresh folders that took one write, then got `signal`. */
  const writeThenStop = async (key: string, signal: NodeJS.Signals) => {
    const [dataDir, configDir] = [await tempDir('pla-data-'), await tempDir('pla-config-')];
    const server = await startLocalServer({ dataDir, configDir });
    await server.http('POST', SET, { body: { key } });
    await server.stop(signal);
    return { server, dataDir, configDir };
  };

  it('stops cleanly on SIGTERM: exit 0, store closed and unlocked', async () => {
    const { server, dataDir, configDir } = await writeThenStop('last-write', 'SIGTERM');
    expect(server.exitCode).toBe(0);
    expect(server.stderr()).toContain('stopped');
    expect((await readdir(dataDir)).filter((f) => f.includes('lock'))).toEqual([]);

    const again = await startLocalServer({ dataDir, configDir });
    try {
      const settings = (await again.http('GET', `${SET}?size=100`)).body as { content: Array<{ key: string }> };
      expect(settings.content.map((s) => s.key)).toContain('last-write');
    } finally {
      await again.stop();
    }
  });
  // conf (loaded to save the key) brings when-exit, which sends the signal once
  // more after its own clean-up: that echo must not cut the shutdown short.
  it('stops cleanly on Ctrl-C (SIGINT) too: store closed and unlocked, exit 130', async () => {
    const { server, dataDir } = await writeThenStop('before-ctrl-c', 'SIGINT');
    expect(server.exitCode).toBe(130);
    expect(server.stderr()).toContain('pla server: stopped');
    expect((await readdir(dataDir)).filter((f) => f.includes('lock'))).toEqual([]);
  });
});

describe('rehearsal tools', () => {
  it('--fail-rate 1 fails every API request with a 500 problem before it runs; admin endpoints still answer', async () => {
    const server = await startLocalServer({ args: ['--fail-rate', '1'] });
    try {
      const failed = await server.http('POST', SET, { body: { key: 'never' } });
      expect(failed.status).toBe(500);
      expect(failed.body).toMatchObject({ status: 500, type: 'urn:pla:problem:injected-failure' });
      const health = (await server.http('GET', '/_admin/health', { key: null })).body as { records: { settings: number } };
      expect(health.records.settings).toBe(4); // the seed's, nothing added
    } finally {
      await server.stop();
    }
  });

  it('--simulate-tasks moves every PENDING and RUNNING task on to an end state', async () => {
    const server = await startLocalServer({ args: ['--simulate-tasks', '1'] });
    try {
      const open = async () =>
        (
          (await server.http('POST', '/api/v1/batch/mass-inter-company-transfer/tasks/search', { body: { status: ['PENDING', 'RUNNING'] } })).body as {
            page: { totalElements: number };
          }
        ).page.totalElements;
      expect(await open()).toBeGreaterThan(0);
      // Polls for the outcome (no assertion on how long it takes; the test timeout bounds it).
      while ((await open()) > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      const ended = (await server.http('GET', '/api/v1/batch/mass-inter-company-transfer/tasks')).body as {
        content: Array<{ status: string; finishedAt?: string }>;
      };
      for (const task of ended.content) expect(['COMPLETED', 'FAILED', 'CANCELLED']).toContain(task.status);
      expect(ended.content.filter((t) => t.status === 'COMPLETED').every((t) => typeof t.finishedAt === 'string')).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

describe('administration through pla server …', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keys create prints the key once; list masks it; revoke makes it 401', async () => {
    // -e names the environment whose server makes the key, and the key's environment.
    const created = await server.pla(['server', 'keys', 'create', '--name', 'ci', '--permissions', 'determinations:read', '--env', 'local']);
    expect(created.exitCode, created.stderr).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^pla_local_/);
    expect((await server.http('GET', DET, { key: secret })).status).toBe(200);
    expect((await server.http('POST', DET, { key: secret, body: {} })).status).toBe(403);

    const listed = await server.pla(['server', 'keys', 'list', '-o', 'json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain(secret);
    expect(listed.stdout).not.toContain(server.adminKey);
    const keys = JSON.parse(listed.stdout) as Array<{ id: number; name: string; env: string; key: string }>;
    const ci = keys.find((k) => k.name === 'ci');
    expect(ci).toMatchObject({ env: 'local', key: `••••${secret.slice(-4)}` });

    const revoked = await server.pla(['server', 'keys', 'revoke', String(ci?.id), '-o', 'json']);
    expect(revoked.exitCode, revoked.stderr).toBe(0);
    expect((await server.http('GET', DET, { key: secret })).status).toBe(401);
    expect((await server.pla(['server', 'keys', 'create', '--name', 'bad', '--permissions', 'everything'])).exitCode).toBe(5);
  });

  it('health, log (keys redacted) and reset (re-seeds, keeps keys)', async () => {
    const health = await server.pla(['server', 'health', '-o', 'json']);
    expect(health.exitCode, health.stderr).toBe(0);
    expect(JSON.parse(health.stdout)).toMatchObject({ status: 'ok' });

    await server.http('GET', '/api/topics/lease', { key: 'pla_local_wrong-key-1234' });
    const log = await server.pla(['server', 'log', '--limit', '50', '-o', 'json']);
    expect(log.exitCode, log.stderr).toBe(0);
    expect(log.stdout).toContain('••••1234');
    expect(log.stdout).not.toContain('wrong-key');
    expect(log.stdout).not.toContain(server.adminKey);

    await server.http('POST', DET, { body: { code: 'to-be-reset' } });
    const before = await total(server, DET);
    expect((await server.pla(['server', 'reset'])).exitCode).toBe(2); // no terminal, no --yes
    const reset = await server.pla(['server', 'reset', '--yes']);
    expect(reset.exitCode, reset.stderr).toBe(0);
    expect(await total(server, DET)).toBe(before - 1);
    expect((await server.http('GET', DET)).text).not.toContain('to-be-reset');
  });

  it('replays a POST with the same Idempotency-Key instead of running it again', async () => {
    const before = await total(server, SET);
    const headers = { 'idempotency-key': 'retry-me-1' };
    const first = await server.http('POST', SET, { body: { key: 'once' }, headers });
    const second = await server.http('POST', SET, { body: { key: 'once' }, headers });
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await total(server, SET)).toBe(before + 1);
    await server.http('POST', SET, { body: { key: 'twice' }, headers: { 'idempotency-key': 'retry-me-2' } });
    expect(await total(server, SET)).toBe(before + 2);
  });

  it('serves the OpenAPI document without a key', async () => {
    const doc = await server.http('GET', '/openapi.json', { key: null });
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({ openapi: expect.stringMatching(/^3\./) as unknown });
    expect(Object.keys((doc.body as { paths: object }).paths)).toContain('/api/topics/{service}');
  });
});
