/** Ctrl-C: the run winds down and exits 130. */
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS_PREFIX as T } from '../../src/contract/operations.js';
import { type FakeServer, startFakeServer } from '../support/fake-server.js';
import { BIN, TEST_KEY, tempDir } from './support.js';

let server: FakeServer;
let config: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  [server, config] = await Promise.all([
    startFakeServer([{ method: 'GET', path: `${T}/3`, reply: { body: { success: true, data: { id: 3, status: 'RUNNING' } } } }]),
    tempDir(),
  ]);
});

afterAll(async () => {
  await Promise.all([server.close(), config.remove()]);
});

describe('interrupt', () => {
  it('stops `tasks watch` on SIGINT with exit code 130', async () => {
    const child = execa('node', [BIN, 'tasks', 'watch', '3', '--interval', '1'], {
      env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: config.path, PLA_BASE_URL: server.url, PLA_API_KEY: TEST_KEY },
      extendEnv: false,
      reject: false,
    });
    // Wait until the watch is really running (it has polled once), then press Ctrl-C.
    while (server.requests.length === 0 && child.exitCode === null) await sleep(20);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toMatch(/interrupted/);
  });
});
