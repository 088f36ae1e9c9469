/**
 * Private by default: files pla writes that hold records or keys are 0600 and the
 * folders it creates for them 0700; a symbolic link where pla expects its own file
 * (config.json, a rejects file, a plan, the receipts folder) is refused with exit 2
 * and a message naming it, the file it points to left as it was. The built CLI
 * against the real local server.
 */
import { lstat, mkdir, readFile, readdir, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../bulk/helpers.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { startFakeServer } from '../support/fake-server.js';
import { pla } from './support.js';

let server: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
const stored = async (): Promise<Array<Record<string, unknown>>> => {
  const result = await server.pla(['determinations', 'list', '--all', '-o', 'ndjson']);
  return String(result.stdout)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
};

beforeAll(async () => {
  server = await startLocalServer({ seed: false });
  temp = await tempDir();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await temp?.cleanup();
});

describe('file modes', () => {
  it('rejects, plan and receipts are 0600, the receipts folder 0700', async () => {
    const input = temp.path('mixed.ndjson');
    await writeFile(input, [{ code: 'P-1' }, { code: 'P-2', status: 'BOGUS' }].map((r) => JSON.stringify(r)).join('\n'));
    const rejects = temp.path('rejects.csv');
    const run = await server.pla(['determinations', 'upsert', '--file', input, '--rejects', rejects, '--batch-size', '1']);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect(await modeOf(rejects)).toBe(0o600);

    const plan = temp.path('plan.json');
    const planned = await server.pla(['determinations', 'upsert', '--file', input, '--plan-out', plan]);
    expect(planned.exitCode, String(planned.stderr)).toBe(0);
    expect(await modeOf(plan)).toBe(0o600);

    const runs = join(server.configDir, 'runs');
    expect(await modeOf(runs)).toBe(0o700);
    const receipts = await readdir(runs);
    expect(receipts.length).toBeGreaterThan(0);
    for (const name of receipts) expect(await modeOf(join(runs, name))).toBe(0o600);
  });

  it('unknown-outcome file and the checkpoint that remembers it are 0600', async () => {
    // A service that fails every write after receiving it: the outcome is unknown, the run stops.
    const failing = await startFakeServer([{ path: /.*/, reply: { status: 500, body: { title: 'Internal Server Error', status: 500 } } }]);
    try {
      const input = temp.path('creates.ndjson');
      await writeFile(input, [{ code: 'U-1' }, { code: 'U-2' }].map((r) => JSON.stringify(r)).join('\n'));
      const unknown = temp.path('unknown.ndjson');
      const checkpoint = temp.path('run.checkpoint');
      const configDir = temp.path('unknown-config');
      const run = await pla(['determinations', 'upsert', '--file', input, '--unknown-outcome', unknown, '--checkpoint', checkpoint, '--retries', '0'], {
        server: failing,
        configDir,
      });
      expect(run.exitCode, run.stderr).not.toBe(0);
      expect(await modeOf(unknown)).toBe(0o600);
      expect(await modeOf(checkpoint)).toBe(0o600);
    } finally {
      await failing.close();
    }
  });

  it('a config folder pla creates is 0700 and its config.json 0600', async () => {
    const dir = join(temp.path('fresh'), 'nested', 'pla');
    const result = await pla(['config', 'set-url', 'https://qa.example.com', '--env', 'qa'], { configDir: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(join(dir, 'config.json'))).toBe(0o600);
  });
});

describe('symbolic links pla does not write through', () => {
  it('config.json that is a link: refused, the target unchanged', async () => {
    const dir = temp.path('linked-config');
    await mkdir(dir, { mode: 0o700 });
    const target = temp.path('elsewhere.json');
    await writeFile(target, '{}\n');
    await symlink(target, join(dir, 'config.json'));
    const result = await pla(['config', 'set-key', '--env', 'qa'], { configDir: dir, input: 'secret-key-0123456789abcdef\n' });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/error: configuration file .*config\.json is a symbolic link: pla does not write through links/);
    expect(result.stderr).toMatch(/hint: remove the link/);
    expect(await readFile(target, 'utf8')).toBe('{}\n');
    expect((await lstat(join(dir, 'config.json'))).isSymbolicLink()).toBe(true);
  });

  it('config export --out writes 0600 with the keys, and refuses a link there, its target unchanged', async () => {
    const out = temp.path('envs-with-keys.json');
    const result = await server.pla(['config', 'export', '--with-keys', '--yes', '--out', out]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(await modeOf(out)).toBe(0o600);
    expect((JSON.parse(await readFile(out, 'utf8')) as { environments: { local: { apiKey: string } } }).environments.local.apiKey).toBe(server.adminKey);

    const target = temp.path('export-target.txt');
    await writeFile(target, 'keep\n');
    const link = temp.path('export-link.json');
    await symlink(target, link);
    const refused = await server.pla(['config', 'export', '--with-keys', '--yes', '--out', link]);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/error: export file .*export-link\.json is a symbolic link: pla does not write through links/);
    expect(await readFile(target, 'utf8')).toBe('keep\n');
  });

  it('a rejects file that is a link: refused before anything is sent, the target unchanged', async () => {
    const target = temp.path('victim.txt');
    await writeFile(target, 'keep me\n');
    const rejects = temp.path('linked-rejects.csv');
    await symlink(target, rejects);
    const input = temp.path('one.ndjson');
    await writeFile(input, `${JSON.stringify({ code: 'L-1' })}\n${JSON.stringify({ code: 'L-2' })}\n`);
    const result = await server.pla(['determinations', 'upsert', '--file', input, '--rejects', rejects]);
    expect(result.exitCode, String(result.stderr)).toBe(2);
    expect(String(result.stderr)).toMatch(/error: rejects file .*linked-rejects\.csv is a symbolic link/);
    expect(await readFile(target, 'utf8')).toBe('keep me\n');
    expect((await stored()).filter((r) => String(r.code).startsWith('L-'))).toEqual([]);
  });

  it('a plan file that is a link: refused, the link and its target unchanged', async () => {
    const target = temp.path('plan-victim.txt');
    await writeFile(target, 'keep me\n');
    const plan = temp.path('linked-plan.json');
    await symlink(target, plan);
    const result = await server.pla(['determinations', 'upsert', '--data', '{"code": "L-3"}', '--plan-out', plan]);
    expect(result.exitCode, String(result.stderr)).toBe(2);
    expect(String(result.stderr)).toMatch(/error: plan file .*linked-plan\.json is a symbolic link/);
    expect(await readFile(target, 'utf8')).toBe('keep me\n');
    expect((await lstat(plan)).isSymbolicLink()).toBe(true);
  });

  it('a receipts folder that is a link: refused before anything is sent', async () => {
    const elsewhere = temp.path('receipts-elsewhere');
    await mkdir(elsewhere);
    const runs = join(server.configDir, 'runs');
    await rename(runs, `${runs}.kept`);
    await symlink(elsewhere, runs);
    try {
      const result = await server.pla(['determinations', 'create', '--data', '{"code": "L-4"}']);
      expect(result.exitCode, String(result.stderr)).toBe(2);
      expect(String(result.stderr)).toMatch(/error: receipts folder .*runs is a symbolic link/);
      expect(await readdir(elsewhere)).toEqual([]);
      expect((await stored()).filter((r) => r.code === 'L-4')).toEqual([]);
    } finally {
      await rm(runs);
      await rename(`${runs}.kept`, runs);
    }
  });
});
