/**
 * `pla server start` never overwrites an environment silently: a second server on
 * another folder gets an environment of its own and `local` keeps working; a server
 * whose environment holds another folder's key is refused (exit 2) without a
 * terminal to ask on; `-e` is honoured by `server keys|health|log`; and a lost admin
 * key is made again offline with `pla server keys create --data DIR`. Built CLI,
 * real servers, a temporary config folder shared by all of them, as on one machine.
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/config/index.js';
import { startLocalServer, spawnServer, type LocalServer } from '../support/local-server.js';
import { runInTerminal } from '../support/terminal.js';
import { derivedEnvName } from '../../src/cli/server-environment.js';

const DET = '/api/v1/asset-transaction-type-determinations';

let first: LocalServer;
let work: string;
let fin2Dir: string;
let second: Awaited<ReturnType<typeof spawnServer>> | undefined;

/** The environments stored in the shared config folder. */
async function environments(): Promise<Record<string, { baseUrl?: string; apiKey?: string; localData?: string }>> {
  return (await openConfig({ env: { PLA_CONFIG_DIR: first.configDir }, readOnly: true })).list();
}

async function stopSecond(): Promise<void> {
  second?.child.kill('SIGTERM');
  await second?.child;
  second = undefined;
}

async function totalOn(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}${DET}?size=1`, { headers: { 'x-api-key': key } });
  return ((await response.json()) as { page: { totalElements: number } }).page.totalElements;
}

beforeAll(async () => {
  first = await startLocalServer();
  work = await mkdtemp(join(tmpdir(), 'pla-envs-'));
  fin2Dir = join(work, 'fin2');
});

afterAll(async () => {
  await stopSecond();
  await first?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('server start and environments', () => {
  it('another folder gets an environment of its own; local keeps its server and key', async () => {
    const before = (await environments()).local;
    second = await spawnServer(['--data', fin2Dir, '--no-seed'], first.configDir);
    expect(second.stderr()).toContain('environment local-fin2 points at this server (pla -e local-fin2 …)');
    const envs = await environments();
    expect(envs.local).toEqual(before);
    expect(envs['local-fin2']).toMatchObject({ baseUrl: second.url, localData: fin2Dir, apiKey: expect.stringMatching(/^pla_/) as unknown });
    const shown = JSON.parse((await first.pla(['config', 'show', '-o', 'json'])).stdout) as Array<{ env: string; localData: string }>;
    expect(shown.find((row) => row.env === 'local-fin2')?.localData).toBe(fin2Dir);

    // Each environment reaches its own server.
    const made = await first.pla(['det', 'create', '-e', 'local-fin2', '--data', '{"code":"FIN2-1"}', '-o', 'json']);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(await totalOn(second.url, envs['local-fin2']?.apiKey as string)).toBe(1);
    const onLocal = await first.pla(['det', 'list', '--all', '-o', 'json']);
    expect(onLocal.exitCode, onLocal.stderr).toBe(0);
    expect(onLocal.stdout).not.toContain('FIN2-1');
  });

  it('-e is honoured by server keys, health and log', async () => {
    const key = await first.pla(['server', 'keys', 'create', '--name', 'fin2-ci', '-e', 'local-fin2', '--permissions', 'determinations:read']);
    expect(key.exitCode, key.stderr).toBe(0);
    const secret = key.stdout.trim();
    expect(secret).toMatch(/^pla_localfin2_/);
    expect((await fetch(`${second?.url}${DET}`, { headers: { 'x-api-key': secret } })).status).toBe(200);
    expect((await first.http('GET', DET, { key: secret })).status).toBe(401);

    const health = JSON.parse((await first.pla(['server', 'health', '-e', 'local-fin2', '-o', 'json'])).stdout) as { records: { determinations: number } };
    expect(health.records.determinations).toBe(1);
    const localHealth = JSON.parse((await first.pla(['server', 'health', '-o', 'json'])).stdout) as { records: { determinations: number } };
    expect(localHealth.records.determinations).toBeGreaterThan(1);

    const log = JSON.parse((await first.pla(['server', 'log', '-e', 'local-fin2', '-o', 'json'])).stdout) as Array<{ method: string; path: string }>;
    expect(log.some((r) => r.method === 'POST' && r.path === DET)).toBe(true);
    const keys = JSON.parse((await first.pla(['server', 'keys', 'list', '-e', 'local-fin2', '-o', 'json'])).stdout) as Array<{ name: string }>;
    expect(keys.map((k) => k.name)).toContain('fin2-ci');
  });

  it('a server on other data never takes an environment over without asking (exit 2, config unchanged)', async () => {
    const before = await environments();
    const other = await first.pla(['server', 'start', '--port', '0', '--data', join(work, 'other'), '--env-name', 'local']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/^error: environment local holds the local server of .* will not take it over/m);
    expect(other.stderr).toMatch(/^hint: give this server an environment of its own: --env-name NAME/m);
    expect(await environments()).toEqual(before);
    const badName = await first.pla(['server', 'start', '--port', '0', '--data', join(work, 'never'), '--env-name', 'Bad Name']);
    expect(badName.exitCode).toBe(2);
    expect(badName.stderr).toMatch(/^error: invalid environment name "Bad Name"/m);
    await expect(access(join(work, 'never'))).rejects.toThrow();
    // local still reaches the first server.
    expect((await first.pla(['det', 'get', '1', '-o', 'json'])).exitCode).toBe(0);
  });

  it('on a terminal it asks first; no leaves the environment as it was', async () => {
    const before = await environments();
    const asked = await runInTerminal(['server', 'start', '--port', '0', '--data', join(work, 'other'), '--env-name', 'local'], {
      columns: 200,
      env: { PLA_CONFIG_DIR: first.configDir },
      input: 'n\n',
    });
    const screen = asked.lines.map((l) => l.text).join('\n');
    expect(screen).toMatch(/Environment local holds the local server of .*\. Point it at this server \(data in .*other\) instead\? \[y\/N\]/);
    expect(asked.exitCode, screen).toBe(2);
    expect(screen).toContain('error: not confirmed; the environment is unchanged');
    expect(await environments()).toEqual(before);
  });

  it('a stopped second server leaves local working', async () => {
    await stopSecond();
    const listed = await first.pla(['det', 'list', '--size', '1', '-o', 'json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
  });

  it('keys create --data makes a new admin key offline, saved for the environment the folder feeds', async () => {
    const created = await first.pla(['server', 'keys', 'create', '--data', fin2Dir, '--name', 'recovery']);
    expect(created.exitCode, created.stderr).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^pla_localfin2_/);
    expect(created.stderr).toContain('saved for environment local-fin2');
    expect(created.stderr).not.toContain(secret);
    expect((await environments())['local-fin2']?.apiKey).toBe(secret);

    // The folder's server takes the key: an admin one (keys list needs admin).
    second = await spawnServer(['--data', fin2Dir], first.configDir);
    const keys = await first.pla(['server', 'keys', 'list', '-e', 'local-fin2', '-o', 'json']);
    expect(keys.exitCode, keys.stderr).toBe(0);
    expect((JSON.parse(keys.stdout) as Array<{ name: string; permissions: string }>).find((k) => k.name === 'recovery')).toMatchObject({ permissions: '*' });

    // Not while a server holds the folder.
    const busy = await first.pla(['server', 'keys', 'create', '--data', fin2Dir, '--name', 'again']);
    expect(busy.exitCode).toBe(10);
    expect(busy.stderr).toMatch(/^error: data folder .* is in use by /m);
    await stopSecond();

    const nowhere = await first.pla(['server', 'keys', 'create', '--data', join(work, 'empty-or-missing'), '--name', 'x']);
    expect(nowhere.exitCode).toBe(2);
    expect(nowhere.stderr).toMatch(/is not a folder|holds no local server data/);
  });
});

describe('the environment a server feeds without --env-name', () => {
  it('local for the default folder on the default port, one of its own otherwise', () => {
    // (Checked as a function: port 4010 may be taken on a shared machine.)
    expect(derivedEnvName({ dataDir: './pla-data', port: 4010 })).toBe('local');
    expect(derivedEnvName({ dataDir: './pla-data', port: 4020 })).toBe('local-4020');
    expect(derivedEnvName({ dataDir: '/tmp/Fin 2', port: 4010 })).toBe('local-fin-2');
    expect(derivedEnvName({ dataDir: './pla-data', port: 4010, storeUrl: 'postgres://pla:secret@db:5432/stub' })).toBe('local-stub');
  });
});
