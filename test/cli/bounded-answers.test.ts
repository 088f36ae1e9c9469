/**
 * Bounded answers: the built CLI against services that misbehave on purpose. An
 * answer that never ends is cut at the size cap, one that trickles at the deadline,
 * one that announces a gigabyte before it is read; each exits 8 with its own words,
 * sends the request once (no retry storm), and keeps the CLI's memory bounded (its
 * peak resident memory, written by a preloaded module when it exits).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileServer, type HostileMode, type HostileServer } from '../support/hostile-server.js';
import { BIN, TEST_KEY, tempDir } from './support.js';

const PEAK_MODULE = fileURLToPath(new URL('../support/peak-memory.cjs', import.meta.url));
const MB = 1024 * 1024;

interface BoundedRun {
  exitCode: number;
  stderr: string;
  elapsedMs: number;
  peakBytes: number;
}

describe('answers the CLI will not wait for or hold whole', () => {
  let dir: { path: string; remove: () => Promise<void> };
  const servers: HostileServer[] = [];
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await dir.remove();
  });

  async function serve(mode: HostileMode): Promise<HostileServer> {
    const server = await startHostileServer(mode);
    servers.push(server);
    return server;
  }

  async function run(server: HostileServer, args: string[], name: string): Promise<BoundedRun> {
    const peakFile = join(dir.path, `${name}.peak`);
    const started = performance.now();
    const result = await execa('node', ['--require', PEAK_MODULE, BIN, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir.path,
        PLA_CONFIG_DIR: dir.path,
        NO_COLOR: '1',
        PLA_BASE_URL: server.url,
        PLA_API_KEY: TEST_KEY,
        PLA_TEST_PEAK_FILE: peakFile,
      },
      extendEnv: false,
      reject: false,
      // A CLI that never ends fails the test here instead of hanging it.
      timeout: 120_000,
    });
    return {
      exitCode: result.exitCode ?? -1,
      stderr: String(result.stderr),
      elapsedMs: performance.now() - started,
      peakBytes: Number(await readFile(peakFile, 'utf8')),
    };
  }

  it('an answer that never ends stops at the 64 MB default cap: exit 8, one request, memory bounded', async () => {
    const server = await serve('endless');
    const result = await run(server, ['topics', 'list', 'leases'], 'endless-default');
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/error: the answer from http:\/\/127\.0\.0\.1:\d+ is larger than 64 MB: stopped reading it \(GET \/api\/topics\/leases\)/);
    expect(result.stderr).toMatch(/hint: .*--max-answer-size/);
    expect(server.requests).toBe(1);
    // Generous: the cap's 64 MB of chunks, their join, Node itself. Before the cap it grew past 4 GB.
    expect(result.peakBytes).toBeLessThan(400 * MB);
    expect(result.elapsedMs).toBeLessThan(90_000);
  });

  it('--max-answer-size sets the cap (here lower, read before anything is printed)', async () => {
    const server = await serve('endless');
    const result = await run(server, ['topics', 'list', 'leases', '--max-answer-size', '1MB', '-o', 'json'], 'endless-1mb');
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/is larger than 1 MB: stopped reading it/);
    expect(server.requests).toBe(1);
    expect(result.peakBytes).toBeLessThan(200 * MB);
  });

  it('an answer that trickles ends at the --timeout deadline, which counts the whole answer: exit 8, not retried', async () => {
    const server = await serve('trickle');
    const result = await run(server, ['topics', 'list', 'leases', '--timeout', '3'], 'trickle');
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/error: the answer from http:\/\/127\.0\.0\.1:\d+ did not end within 3 s \(GET \/api\/topics\/leases\)/);
    expect(result.stderr).toMatch(/hint: .*--timeout/);
    // At least the deadline; far less than forever (a byte arrives every second, so a per-chunk timeout never fires).
    expect(result.elapsedMs).toBeGreaterThanOrEqual(3000);
    expect(result.elapsedMs).toBeLessThan(60_000);
    expect(server.requests).toBe(1);
    expect(result.peakBytes).toBeLessThan(200 * MB);
  });

  it('an answer announcing more than the cap is refused at its headers', async () => {
    const server = await serve('huge-length');
    const result = await run(server, ['topics', 'list', 'leases', '--timeout', '60'], 'huge');
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/is larger than 64 MB: stopped reading it/);
    // Well before the 60 s deadline: nothing of the body was waited for.
    expect(result.elapsedMs).toBeLessThan(45_000);
    expect(server.requests).toBe(1);
  });

  it('a bad --max-answer-size is a usage error', async () => {
    const server = await serve('endless');
    const result = await run(server, ['topics', 'list', 'leases', '--max-answer-size', 'lots'], 'bad-size');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--max-answer-size.*expected a size such as 200MB/);
    expect(server.requests).toBe(0);
  });
});
