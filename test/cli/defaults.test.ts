/**
 * One defaults object per concern, read by the help text and by the run alike:
 * the help names the values of the objects, and the runs use them (the local
 * environment's URL is where a default server listens; an unflagged bulk run cuts
 * batches of the default size).
 */
import { describe, expect, it } from 'vitest';
import { runBulk } from '../../src/bulk/index.js';
import { BULK_DEFAULTS, WATCH_DEFAULTS } from '../../src/bulk/defaults.js';
import { CLIENT_DEFAULTS } from '../../src/client/defaults.js';
import { DEFAULT_SERVER_OPTIONS, DEFAULT_TASK_STEP_SECONDS, LOCAL_BASE_URL, REQUEST_LOG_LIMITS, formatByteSize } from '../../src/server/options.js';
import { allOrNothing, client, records, refsOf, stream } from '../bulk/helpers.js';
import { startFakeServer } from '../support/fake-server.js';
import { pla, tempDir } from './support.js';

describe('defaults', () => {
  it('the help text states the values of the defaults objects', async () => {
    const config = await tempDir();
    try {
      const help = async (...args: string[]) => (await pla([...args, '--help'], { configDir: config.path })).stdout.replace(/\s+/g, ' ');
      const [upsert, watch, start, log, global] = await Promise.all([
        help('det', 'upsert'),
        help('tasks', 'watch'),
        help('server', 'start'),
        help('server', 'log'),
        // The global options (retries, timeout, answer size) are listed once, by `pla help options`.
        (async () => (await pla(['help', 'options'], { configDir: config.path })).stdout.replace(/\s+/g, ' '))(),
      ]);
      expect(upsert).toContain(`records or ids per bulk request (default ${BULK_DEFAULTS.batchSize})`);
      expect(upsert).toContain(`bulk requests in flight (default ${BULK_DEFAULTS.concurrency})`);
      expect(global).toContain(`(default ${CLIENT_DEFAULTS.retries})`);
      expect(global).toContain(`whole answer included (default ${CLIENT_DEFAULTS.timeoutSeconds})`);
      expect(global).toContain(`(default ${CLIENT_DEFAULTS.maxAnswerBytes / 1024 / 1024}MB)`);
      expect(watch).toContain(`seconds between polls (default ${WATCH_DEFAULTS.intervalSeconds})`);
      expect(start).toContain(`(default: "${DEFAULT_SERVER_OPTIONS.port}")`);
      expect(start).toContain(`(default: "${DEFAULT_SERVER_OPTIONS.host}")`);
      expect(start).toContain(`(default ${DEFAULT_SERVER_OPTIONS.maxPageSize})`);
      expect(start).toContain(`(default ${formatByteSize(DEFAULT_SERVER_OPTIONS.maxBodyBytes)})`);
      expect(start).toContain(`every N seconds (default ${DEFAULT_TASK_STEP_SECONDS})`);
      expect(start).toContain(`more is a 413 (default ${DEFAULT_SERVER_OPTIONS.maxBulkItems})`);
      expect(start).toContain(`from one client address; more are answered 503 (default ${DEFAULT_SERVER_OPTIONS.maxConnectionsPerAddress})`);
      expect(start).toContain(`cut with 408 (default ${DEFAULT_SERVER_OPTIONS.headerTimeoutMs / 1000})`);
      expect(log).toContain(`(default ${REQUEST_LOG_LIMITS.shown}, at most ${REQUEST_LOG_LIMITS.most})`);
    } finally {
      await config.remove();
    }
  });

  it("pla's own bulk batches fit the local server's cap on bulk items", () => {
    expect(BULK_DEFAULTS.batchSize).toBeLessThanOrEqual(DEFAULT_SERVER_OPTIONS.maxBulkItems);
  });

  it('environment local defaults to where a server started with the defaults listens', async () => {
    const config = await tempDir();
    try {
      const shown = await pla(['config', 'show', '-o', 'json'], { configDir: config.path });
      const local = (JSON.parse(shown.stdout) as Array<{ env: string; baseUrl: string; baseUrlSource: string }>).find((row) => row.env === 'local');
      expect(local).toMatchObject({ baseUrl: LOCAL_BASE_URL, baseUrlSource: 'default' });
      expect(LOCAL_BASE_URL).toBe(`http://${DEFAULT_SERVER_OPTIONS.host}:${DEFAULT_SERVER_OPTIONS.port}`);
    } finally {
      await config.remove();
    }
  });

  it('a bulk run without --batch-size cuts batches of the default size', async () => {
    const server = await startFakeServer([{ method: 'PUT', path: /createOrUpdate\/bulk$/, reply: allOrNothing }]);
    try {
      await runBulk({ client: client(server.url), operationId: 'determinations.upsertBulk', items: stream(records(BULK_DEFAULTS.batchSize + 1)) });
      expect(server.requests.map((r) => refsOf(r).length)).toEqual([BULK_DEFAULTS.batchSize, 1]);
    } finally {
      await server.close();
    }
  });
});
