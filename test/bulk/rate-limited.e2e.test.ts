/**
 * A bulk run against `pla server start --rate-limit R` keeps going until done, with
 * no rejects: a 429 says the service did not process the request, so it is retried
 * after `Retry-After` for creates as for everything else. (A regression test: it
 * asserts completion and the stored records, not the speed.)
 */
import { access, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { tempDir } from './helpers.js';

const RATE = 10;
const RECORDS = 1000;

let server: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  server = await startLocalServer({ seed: false, args: ['--rate-limit', String(RATE)] });
  temp = await tempDir();
});
afterAll(async () => {
  await server?.stop();
  await temp?.cleanup();
});

/** GET that waits out a 429: the run may have spent the key's bucket just before. */
async function readPastLimit(path: string) {
  let answer = await server.http('GET', path);
  for (let tries = 0; answer.status === 429 && tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 1000 / RATE));
    answer = await server.http('GET', path);
  }
  expect(answer.status).toBe(200);
  return answer;
}

it(
  `a bulk create of ${RECORDS} records (40 requests, 4 at once) against --rate-limit ${RATE} finishes with every record and no rejects`,
  { timeout: 300_000 },
  async () => {
    const input = temp.path('rated.ndjson');
    await writeFile(input, Array.from({ length: RECORDS }, (_, i) => `{"ref":"rate-${i}"}\n`).join(''));
    const rejects = temp.path('rated-rejects.ndjson');
    const unknown = temp.path('rated-unknown.ndjson');
    const result = await server.pla([
      'determinations',
      'create',
      '--file',
      input,
      '--batch-size',
      '25',
      '--concurrency',
      '4',
      '--rejects',
      rejects,
      '--unknown-outcome',
      unknown,
      '-o',
      'ndjson',
      '--fields',
      'id',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^created 1,000, failed 0, skipped 0 in /m);
    await expect(access(rejects)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(access(unknown)).rejects.toMatchObject({ code: 'ENOENT' });

    const stored = await readPastLimit('/api/v1/asset-transaction-type-determinations?size=1');
    expect((stored.body as { page: { totalElements: number } }).page.totalElements).toBe(RECORDS);
    // The limit was really in the way: some requests were answered 429 and sent again.
    const log = (await readPastLimit('/_admin/requests?limit=500')).body as { data: Array<{ status: number }> };
    expect(log.data.some((entry) => entry.status === 429)).toBe(true);
  },
);
