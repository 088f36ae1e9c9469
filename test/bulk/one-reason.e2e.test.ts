/**
 * A sheet the service refuses for one reason (every row's status is one it does
 * not know) is not bisected down to single rows: once both halves of a refused
 * batch are refused for the same reason, the rest of the batch is refused with
 * it. Requests counted at the real local server: at most 1.2 a row (7 a batch
 * here), and every row is in the rejects with the service's reason.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { tempFolder } from '../input/helpers.js';

const ROWS = 300;
const BATCH = 100;

let server: LocalServer;
let folder: Awaited<ReturnType<typeof tempFolder>>;

beforeAll(async () => {
  [server, folder] = await Promise.all([startLocalServer(), tempFolder()]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), folder?.cleanup()]);
});

describe('a sheet refused for one reason', () => {
  it('costs at most 1.2 requests a row, and every row is a reject with the reason', async () => {
    const lines = Array.from({ length: ROWS }, (_, i) => `ONE-${i};Row ${i};BOGUS`);
    const file = await folder.file('one-reason.csv', `code;name;status\n${lines.join('\n')}\n`);
    const rejects = join(folder.dir, 'rejects.csv');
    const run = await server.pla(['det', 'create', '--file', file, '--batch-size', String(BATCH), '--concurrency', '1', '--rejects', rejects, '-o', 'json']);
    expect(run.exitCode).toBe(9);

    const log = (await server.http('GET', '/_admin/requests?limit=500')).body as { data: Array<{ method: string; path: string; status: number }> };
    const bulk = log.data.filter((entry) => entry.method === 'POST' && entry.path.includes('/bulk'));
    expect(bulk.length).toBeGreaterThan(0);
    expect(bulk.length).toBeLessThanOrEqual(1.2 * ROWS);
    // One request per batch, one per half, one per quarter: seven a batch.
    expect(bulk.length).toBe((ROWS / BATCH) * 7);
    expect(bulk.every((entry) => entry.status === 400)).toBe(true);

    const text = await readFile(rejects, 'utf8');
    const rows = text.trim().split(/\r?\n/).slice(1);
    expect(rows).toHaveLength(ROWS);
    expect(rows.every((row) => row.includes('status'))).toBe(true);
    expect(run.stderr).toMatch(/failed 300/);
  });
});
