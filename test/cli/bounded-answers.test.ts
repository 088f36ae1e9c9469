/**
 * Bounded answers: the built CLI against services that misbehave on purpose. An
 * answer that never ends is cut at the size cap, one that trickles at the deadline,
 * one that announces a gigabyte before it is read; each exits 8 with its own words,
 * sends the request once (no retry storm), and keeps the CLI's memory bounded (its
 * peak resident memory, written by a preloaded module when it exits).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileServer, type HostileMode, type HostileServer } from '../support/hostile-server.js';
import { runWithPeak, type PeakRun } from '../support/peak-run.js';
import { tempDir } from './support.js';

const MB = 1024 * 1024;

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

  const run = (server: HostileServer, args: string[], name: string): Promise<PeakRun> => runWithPeak(server.url, args, dir.path, name);

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

  it('a list page that never ends stops at the cap too, its tiny records held as bytes, not values', async () => {
    const server = await serve('endless');
    const result = await run(server, ['det', 'list', '--all', '-o', 'ndjson'], 'endless-page');
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/is larger than 64 MB: stopped reading it \(GET \/api\/v1\/asset-transaction-type-determinations\)/);
    expect(result.stdout).toBe('');
    expect(server.requests).toBe(1);
    // Measured: about 140 MB (a buffered read: 130 MB); parsing these 45-byte records as they came took 265 MB.
    expect(result.peakBytes).toBeLessThan(220 * MB);
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
