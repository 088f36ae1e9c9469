/**
 * What the CLI repeats: a create answered 500 is sent once (the service may have
 * carried it out), and again only with --retry-unsafe, under the same
 * Idempotency-Key; a read answered 500 keeps its retries. Against a server that
 * answers 500 and records every request.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import { pla, tempDir } from './support.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const failing = { status: 500, body: { title: 'Internal Server Error', status: 500, detail: 'boom' } };

describe('retries of the CLI against a service answering 500', () => {
  let server: FakeServer;
  let config: { path: string; remove: () => Promise<void> };
  beforeAll(async () => {
    server = await startFakeServer([{ path: /.*/, reply: failing }]);
    config = await tempDir();
  });
  afterAll(async () => {
    await server.close();
    await config.remove();
  });
  const sent = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path);
  const run = (args: string[]) => pla([...args, '--retries', '2'], { server, configDir: config.path });

  it('a create is sent once, exits 7 and says its outcome is unknown', async () => {
    const result = await run(['determinations', 'create', '--data', '{"code": "A"}']);
    expect(result.exitCode).toBe(7);
    expect(sent('POST', DET)).toHaveLength(1);
    expect(result.stderr).toMatch(/error: 500 Internal Server Error: boom/);
    expect(result.stderr).toMatch(/hint: the service may have carried it out/);
  });

  it('with --retry-unsafe the create is retried, under the same Idempotency-Key', async () => {
    const before = sent('POST', DET).length;
    const result = await run(['determinations', 'create', '--data', '{"code": "B"}', '--retry-unsafe']);
    expect(result.exitCode).toBe(7);
    const attempts = sent('POST', DET).slice(before);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(attempts.every((r) => (r.body as { code: string }).code === 'B')).toBe(true);
  });

  it('an e-mail send and an upsert without id are sent once; a read and an upsert by id are retried', async () => {
    await run(['notifications', 'email', 'send', '--data', '{"forUserEmail": "ana@example.com"}']);
    expect(sent('POST', '/api/email-notifications')).toHaveLength(1);
    await run(['determinations', 'upsert', '--data', '{"code": "C"}']);
    expect(sent('PUT', `${DET}/createOrUpdate`)).toHaveLength(1);
    await run(['determinations', 'upsert', '--data', '{"id": 4, "code": "C"}']);
    expect(sent('PUT', `${DET}/createOrUpdate`)).toHaveLength(4);
    await run(['determinations', 'get', '5']);
    expect(sent('GET', `${DET}/5`)).toHaveLength(3);
  });

  it('a bulk run has one id: its receipt, its Idempotency-Keys and its unknown-outcome file all carry it', async () => {
    const input = join(config.path, 'two.ndjson');
    await writeFile(input, '{"code": "D1"}\n{"code": "D2"}\n');
    const before = sent('POST', `${DET}/bulk`).length;
    const result = await run(['determinations', 'create', '--file', input, '--rejects', join(config.path, 'rejects.ndjson')]);
    expect(result.exitCode).toBe(9);
    const [attempt] = sent('POST', `${DET}/bulk`).slice(before);
    const runs = await run(['runs', 'list', '-o', 'json']);
    const run_ = (JSON.parse(runs.stdout) as Array<{ run: string }>).at(-1)?.run ?? '';
    expect(run_).toMatch(/^\d{8}-\d{6}-\d{3}-[0-9a-f]{4}$/);
    expect(String(attempt?.headers['idempotency-key'])).toMatch(new RegExp(`^pla-${run_}-`));
    expect(await readdir(config.path)).toContain(`unknown-outcome-${run_}.ndjson`);
  });
});
