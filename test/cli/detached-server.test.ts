/**
 * A server you can leave running: `pla server start --detach` returns once the
 * server listens (its URL on stdout), `pla server status` finds it by its record,
 * `pla server log --follow` prints a request made meanwhile, `pla server stop` ends
 * it, and status then says none is running; no process is left behind. The built
 * CLI, real processes, a temporary config and data folder.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/config/index.js';
import { eventually } from '../support/eventually.js';
import { listenLocal } from '../support/listen.js';
import { BIN } from './support.js';

let work: string;
let env: Record<string, string>;
let pid: number | undefined;
/** Servers the -q tests started, killed at the end whatever happened. */
const started: number[] = [];

const alive = (id: number) => {
  try {
    process.kill(id, 0);
    return true;
  } catch {
    return false;
  }
};

const pla = (args: string[]) => execa('node', [BIN, ...args], { env, reject: false });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pla-detach-'));
  env = { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' };
});

afterAll(async () => {
  // A failed test must not leave the server running.
  for (const id of [...(pid === undefined ? [] : [pid]), ...started]) if (alive(id)) process.kill(id, 'SIGKILL');
  await rm(work, { recursive: true, force: true });
});

describe('pla server start --detach', () => {
  it('starts in the background; status, log --follow and stop find it; nothing is left running', async () => {
    const started = await pla(['server', 'start', '--detach', '--port', '0', '--data', join(work, 'data'), '--env-name', 'bg']);
    expect(started.exitCode, started.stderr).toBe(0);
    const url = started.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(started.stderr).toMatch(/running in the background, pid \d+, environment bg; log: /);

    const status = await pla(['server', 'status', '-o', 'json']);
    const rows = JSON.parse(status.stdout) as Array<{ env: string; pid: number; state: string; url: string; log: string }>;
    expect(rows).toEqual([expect.objectContaining({ env: 'bg', state: 'running', url })]);
    pid = rows[0]?.pid;
    expect(pid !== undefined && alive(pid)).toBe(true);
    // -q: the environment of each server running, what `server stop -e` takes.
    expect((await pla(['server', 'status', '-q'])).stdout).toBe('bg');
    expect(await readFile(rows[0]?.log ?? '', 'utf8')).toContain(`pla local server listening on ${url}`);

    // Follow the log, then make a request: it shows up.
    const follow = execa('node', [BIN, '-e', 'bg', 'server', 'log', '--follow', '-o', 'ndjson'], { env, reject: false, buffer: false });
    let followed = '';
    follow.stdout?.on('data', (chunk: Buffer) => (followed += chunk.toString()));
    const key = (await openConfig({ env, readOnly: true })).get('bg').apiKey ?? '';
    // The first start's admin key: shown once to whoever started the server, never written to the log file.
    expect(key).not.toBe('');
    expect(started.stderr).toContain(`New admin key: ${key}`);
    const logText = await readFile(rows[0]?.log ?? '', 'utf8');
    expect(logText).not.toContain(key);
    expect(logText).toContain(`New admin key: ••••${key.slice(-4)}`);
    const seen = async () => {
      await fetch(`${url}/api/v1/asset-transaction-type-determinations/1`, { headers: { 'x-api-key': key } });
      return followed.includes('"path":"/api/v1/asset-transaction-type-determinations/1"');
    };
    await eventually(seen, 60_000, 200);
    follow.kill('SIGINT');
    await follow;

    const stopped = await pla(['-e', 'bg', 'server', 'stop']);
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain(`stopped the server of bg (pid ${String(pid)})`);
    expect(alive(pid as number)).toBe(false);
    const after = await pla(['server', 'status', '-o', 'json']);
    expect(JSON.parse(after.stdout)).toEqual([]);
    expect((await pla(['server', 'status', '-q'])).stdout).toBe('');
    expect(after.stderr).toContain('none is running in the background');
    // Stopping again says so.
    expect((await pla(['-e', 'bg', 'server', 'stop'])).exitCode).toBe(2);
  });

  it('-q prints the URL alone (URL=$(…) works); the log file still gets the request lines, --no-request-log turns them off', async () => {
    type Status = Array<{ env: string; pid: number; url: string; log: string }>;
    const start = async (name: string, extra: string[]) => {
      // -d, the short form: the server it starts runs in the foreground (it does not detach again).
      const run = await pla(['server', 'start', '-d', '-q', '--port', '0', '--data', join(work, name), '--env-name', name, ...extra]);
      expect(run.exitCode, run.stderr).toBe(0);
      const row = (JSON.parse((await pla(['server', 'status', '-o', 'json'])).stdout) as Status).find((server) => server.env === name);
      if (row) started.push(row.pid);
      return { run, row };
    };
    const logged = await start('quiet', []);
    expect(logged.run.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(logged.run.stderr).toBe('');
    expect(logged.row?.url).toBe(logged.run.stdout);
    const unlogged = await start('unlogged', ['--no-request-log']);
    expect(unlogged.run.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const config = await openConfig({ env, readOnly: true });
    const path = '/api/v1/asset-transaction-type-determinations/1';
    for (const [name, url] of [
      ['quiet', logged.run.stdout],
      ['unlogged', unlogged.run.stdout],
    ] as const)
      expect((await fetch(`${url}${path}`, { headers: { 'x-api-key': config.get(name).apiKey ?? '' } })).status).toBe(200);
    // The request line reaches the -q server's log file.
    await eventually(async () => (await readFile(logged.row?.log ?? '', 'utf8')).includes(` GET ${path} 200 `));
    // The other server answered its request log after the request: its line would be written by then, and is not.
    const log = await pla(['-e', 'unlogged', 'server', 'log', '-o', 'json']);
    expect((JSON.parse(log.stdout) as Array<{ path: string }>).map((entry) => entry.path)).toContain(path);
    const unloggedFile = await readFile(unlogged.row?.log ?? '', 'utf8');
    expect(unloggedFile).toContain(`pla local server listening on ${unlogged.run.stdout}`);
    expect(unloggedFile).not.toContain(path);

    for (const name of ['quiet', 'unlogged']) expect((await pla(['-e', name, 'server', 'stop'])).exitCode).toBe(0);
  });

  it('a server that stops before it listens: its own exit code, a bad flag 2 and a port in use 10 (not 1, a bug), no URL', async () => {
    const bad = await pla(['server', 'start', '-d', '-q', '--port', 'abc', '--data', join(work, 'bad')]);
    expect(bad.exitCode, bad.stderr).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('--port must be a port number');
    const holder = await listenLocal(createServer());
    try {
      const port = new URL(holder.url).port;
      const taken = await pla(['server', 'start', '-d', '-q', '--port', port, '--data', join(work, 'taken')]);
      expect(taken.exitCode, taken.stderr).toBe(10);
      expect(taken.stdout).toBe('');
    } finally {
      await holder.close();
    }
  });
});
