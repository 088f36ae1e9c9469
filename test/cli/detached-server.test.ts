/**
 * A server you can leave running: `pla server start --detach` returns once the
 * server listens (its URL on stdout), `pla server status` finds it by its record,
 * `pla server log --follow` prints a request made meanwhile, `pla server stop` ends
 * it, and status then says none is running; no process is left behind. The built
 * CLI, real processes, a temporary config and data folder.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/config/index.js';
import { eventually } from '../support/eventually.js';
import { BIN } from './support.js';

let work: string;
let env: Record<string, string>;
let pid: number | undefined;

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
  if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
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
    expect(await readFile(rows[0]?.log ?? '', 'utf8')).toContain(`pla local server listening on ${url}`);

    // Follow the log, then make a request: it shows up.
    const follow = execa('node', [BIN, '-e', 'bg', 'server', 'log', '--follow', '-o', 'ndjson'], { env, reject: false, buffer: false });
    let followed = '';
    follow.stdout?.on('data', (chunk: Buffer) => (followed += chunk.toString()));
    const key = (await openConfig({ env, readOnly: true })).get('bg').apiKey ?? '';
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
    expect(after.stderr).toContain('none is running in the background');
    // Stopping again says so.
    expect((await pla(['-e', 'bg', 'server', 'stop'])).exitCode).toBe(2);
  });
});
