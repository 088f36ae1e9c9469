/**
 * `pla … --all | head`: when the reader goes away the CLI stops fetching pages and
 * exits 0 quietly, instead of crashing on EPIPE or hanging on a `drain` that never
 * comes.
 */
import { execa } from 'execa';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';

const PAGE_SIZE = 1000;
const PAGES = 1000;
let server: FakeServer;
let configDir: string;

beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), 'pla-config-'));
  // An endless-looking list: a thousand pages of a thousand records each.
  server = await startFakeServer([
    {
      method: 'GET',
      path: '/api/v1/asset-transaction-type-determinations',
      reply: (req) => {
        const number = Number(req.query.page ?? 0);
        const content = Array.from({ length: PAGE_SIZE }, (_, i) => ({ id: number * PAGE_SIZE + i + 1, code: `ATD-${i}`, note: 'x'.repeat(80) }));
        return { body: { content, page: { size: PAGE_SIZE, number, totalElements: PAGE_SIZE * PAGES, totalPages: PAGES } } };
      },
    },
  ]);
});

afterAll(async () => {
  await server.close();
  await rm(configDir, { recursive: true, force: true });
});

it('stops quietly with exit 0 when the reader of stdout closes the pipe', async () => {
  const pla = join(process.cwd(), 'bin/pla.js');
  const result = await execa(
    'bash',
    ['-c', `node ${pla} determinations list --all -o ndjson --size ${PAGE_SIZE} | head -n 1; echo "pla-exit=\${PIPESTATUS[0]}" >&2`],
    {
      env: { PLA_CONFIG_DIR: configDir, PLA_BASE_URL: server.url, PLA_API_KEY: 'test-key-closed-pipe' },
      reject: false,
    },
  );
  expect(JSON.parse(result.stdout)).toMatchObject({ id: 1 });
  expect(result.stderr).toContain('pla-exit=0');
  expect(result.stderr).not.toMatch(/EPIPE|Error:|at /);
  // It stopped early: far fewer pages were asked for than exist.
  expect(server.requests.length).toBeLessThan(PAGES);
});

it.each([['--version'], ['--help'], ['help', 'det']])('pla %s exits 0 quietly into a pipe its reader closed before the first write', async (...words) => {
  const pla = join(process.cwd(), 'bin/pla.js');
  // The reader closes its end, then lets pla start (a FIFO orders the two): every write of pla meets EPIPE.
  const script = `
mkfifo "$1/ready"
{ read -r _ < "$1/ready"; node ${JSON.stringify(pla)} "\${@:2}"; echo "pla-exit=$?" >&2; } | { exec 0<&-; echo > "$1/ready"; }`;
  const fifoDir = await mkdtemp(join(tmpdir(), 'pla-fifo-'));
  try {
    const result = await execa('bash', ['-c', script, 'closed-pipe', fifoDir, ...words], { env: { PLA_CONFIG_DIR: configDir }, reject: false });
    expect(result.stderr).toBe('pla-exit=0');
  } finally {
    await rm(fifoDir, { recursive: true, force: true });
  }
});
