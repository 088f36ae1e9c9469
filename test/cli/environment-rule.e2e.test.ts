/**
 * One environment rule everywhere: `-e`, else PLA_ENV, else `pla config use`.
 * `runs list` shows the chosen environment's runs (`--all-envs` every one), `runs
 * show|undo last` is the last on it; `server keys|health|log` reach the chosen
 * environment's server; `pla -e X server start` feeds X as `--env-name X` does; a
 * connection refused on this machine names the local servers pla knows. Two real
 * local servers sharing one config folder, as on one machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/config/index.js';
import { startLocalServer, spawnServer, type LocalServer } from '../support/local-server.js';

let first: LocalServer;
let second: LocalServer;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pla-env-rule-'));
  first = await startLocalServer();
  // The same config folder: the second server feeds environment `second` beside `local`.
  second = await startLocalServer({ configDir: first.configDir, args: ['--env-name', 'second'] });
});

afterAll(async () => {
  await second?.stop();
  await first?.stop();
  await rm(work, { recursive: true, force: true });
});

const pla = (args: string[], env: Record<string, string> = {}) => first.pla(args, { env });

interface RunRow {
  run: string;
  env: string;
  command: string;
}

const runsOf = async (args: string[], env: Record<string, string> = {}) => {
  const listed = await pla(['runs', 'list', '-o', 'json', ...args], env);
  expect(listed.exitCode, listed.stderr).toBe(0);
  return { rows: JSON.parse(listed.stdout) as RunRow[], stderr: listed.stderr };
};

describe('runs follow the chosen environment', () => {
  let onLocal: string;
  let onSecond: string;

  beforeAll(async () => {
    expect((await pla(['det', 'create', '--data', '{"code":"ENV-L"}'])).exitCode).toBe(0);
    expect((await pla(['-e', 'second', 'det', 'create', '--data', '{"code":"ENV-S"}'])).exitCode).toBe(0);
    const all = (await runsOf(['--all-envs'])).rows;
    onLocal = all.find((run) => run.env === 'local')?.run ?? '';
    onSecond = all.find((run) => run.env === 'second')?.run ?? '';
    expect(onLocal && onSecond).toBeTruthy();
  });

  it('runs list shows the chosen environment, and says what it hides', async () => {
    const local = await runsOf([]);
    expect(local.rows.map((run) => run.env)).toEqual(['local']);
    expect(local.stderr).toContain('1 run(s) on other environments not shown: --all-envs shows them');
    expect((await runsOf(['-e', 'second'])).rows.map((run) => run.run)).toEqual([onSecond]);
    expect((await runsOf([], { PLA_ENV: 'second' })).rows.map((run) => run.run)).toEqual([onSecond]);
    expect((await runsOf(['--all-envs'])).rows).toHaveLength(2);
  });

  it('runs show last and runs undo last mean the last run on the chosen environment', async () => {
    const show = async (args: string[], env: Record<string, string> = {}) =>
      (JSON.parse((await pla(['runs', 'show', 'last', '-o', 'json', ...args], env)).stdout) as { run: string }).run;
    // The newest run is on `second`; on local, last is still local's.
    expect(await show([])).toBe(onLocal);
    expect(await show(['-e', 'second'])).toBe(onSecond);
    expect(await show([], { PLA_ENV: 'second' })).toBe(onSecond);
    expect((await pla(['config', 'use', 'second'])).exitCode).toBe(0);
    try {
      expect(await show([])).toBe(onSecond);
      const undo = await pla(['runs', 'undo', 'last', '--plan', '-o', 'json']);
      expect(undo.exitCode, undo.stderr).toBe(0);
      expect((JSON.parse(undo.stdout) as { command: string }).command).toBe(`runs undo ${onSecond}`);
    } finally {
      expect((await pla(['config', 'use', 'local'])).exitCode).toBe(0);
    }
    const undoLocal = await pla(['runs', 'undo', 'last', '--plan', '-o', 'json']);
    expect((JSON.parse(undoLocal.stdout) as { command: string }).command).toBe(`runs undo ${onLocal}`);
  });
});

describe('server subcommands follow the chosen environment', () => {
  /** The keys a server holds, asked with the admin key its environment keeps (both servers share one config folder). */
  const keyNames = async (server: LocalServer, env: string) => {
    const key = (await openConfig({ env: { PLA_CONFIG_DIR: first.configDir }, readOnly: true })).get(env).apiKey ?? null;
    return ((await server.http('GET', '/_admin/keys', { key })).body as { data: Array<{ name: string }> }).data.map((k) => k.name);
  };

  it('after config use, a new key lands on that environment’s server', async () => {
    expect((await pla(['config', 'use', 'second'])).exitCode).toBe(0);
    try {
      const made = await pla(['server', 'keys', 'create', '--name', 'followed']);
      expect(made.exitCode, made.stderr).toBe(0);
      const log = await pla(['server', 'log', '-o', 'json', '--limit', '5']);
      expect((JSON.parse(log.stdout) as Array<{ path: string }>).some((r) => r.path === '/_admin/keys')).toBe(true);
    } finally {
      expect((await pla(['config', 'use', 'local'])).exitCode).toBe(0);
    }
    expect(await keyNames(second, 'second')).toContain('followed');
    expect(await keyNames(first, 'local')).not.toContain('followed');
    const viaVariable = await pla(['server', 'keys', 'list', '-o', 'json'], { PLA_ENV: 'second' });
    expect((JSON.parse(viaVariable.stdout) as Array<{ name: string }>).map((key) => key.name)).toContain('followed');
  });

  it('pla -e X server start feeds environment X, as --env-name X does', async () => {
    const started = await spawnServer(['--data', join(work, 'third'), '--no-seed', '-e', 'third'], first.configDir);
    try {
      expect(started.stderr()).toContain('environment third points at this server');
      const stored = (await openConfig({ env: { PLA_CONFIG_DIR: first.configDir }, readOnly: true })).get('third');
      expect(stored.baseUrl).toBe(started.url);
    } finally {
      started.child.kill('SIGTERM');
      await started.child;
    }
  });

  it('a connection refused on this machine names the local servers pla knows', async () => {
    // A port nothing listens on: taken from the system, then released.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    expect((await pla(['config', 'set-url', `http://127.0.0.1:${port}`, '--env', 'gone'])).exitCode).toBe(0);
    const result = await pla(['-e', 'gone', 'det', 'list', '--retries', '0']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain(`hint: no server listens there; the local servers pla knows: -e local (${first.url}), -e second (${second.url})`);
  });
});
