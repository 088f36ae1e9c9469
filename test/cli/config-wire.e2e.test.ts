/**
 * An environment's wire profile set by hand (`pla config set-wire`), shown, exported
 * and imported, refused when wrong; and a profile that no longer fits the service:
 * `pla doctor` says so, and `--all` read by it does not exit 0. The built CLI
 * against the local server in its own form (shape B, pages from 0).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ seed: false });
  const file = `${server.dataDir}/records.json`;
  await writeFile(file, JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ code: `W-${i}`, name: `record ${i}` }))));
  expect((await server.pla(['det', 'create', '--file', file])).exitCode).toBe(0);
});
afterAll(() => server?.stop());

async function storedWire(): Promise<unknown> {
  const config = JSON.parse(await readFile(`${server.configDir}/config.json`, 'utf8')) as { environments: Record<string, { wire?: unknown }> };
  return config.environments.local?.wire;
}

describe('pla config set-wire', () => {
  it('merges settings into the stored profile, show prints it, --replace and --unset start over', async () => {
    expect((await server.pla(['config', 'set-wire', 'page.base=1'])).exitCode).toBe(0);
    const merged = await server.pla(['config', 'set-wire', 'page.maxSize=50', 'envelope.key=data']);
    expect(merged.exitCode, merged.stderr).toBe(0);
    expect(merged.stderr).toContain('local: envelope.key=data page.base=1 page.maxSize=50');
    expect(await storedWire()).toEqual({ envelope: { key: 'data' }, page: { base: 1, maxSize: 50 } });
    const show = await server.pla(['config', 'show', '-o', 'json']);
    expect((JSON.parse(show.stdout) as Array<{ env: string; wire: string }>).find((row) => row.env === 'local')?.wire).toBe(
      'envelope.key=data page.base=1 page.maxSize=50',
    );

    expect((await server.pla(['config', 'set-wire', '--replace', 'page.shape=nested'])).exitCode).toBe(0);
    expect(await storedWire()).toEqual({ page: { shape: 'nested' } });
    expect((await server.pla(['config', 'set-wire', '--unset'])).exitCode).toBe(0);
    expect(await storedWire()).toBeUndefined();
  });

  it('a wrong setting is a usage error naming what is accepted, and nothing is stored', async () => {
    const run = await server.pla(['config', 'set-wire', 'page.base=2']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('page.base=2: expected 0 | 1');
    expect(await storedWire()).toBeUndefined();
  });

  it('export and import carry the profile; a broken one in an import is refused', async () => {
    expect((await server.pla(['config', 'set-wire', 'page.base=0', 'page.shape=nested'])).exitCode).toBe(0);
    const exported = await server.pla(['config', 'export']);
    expect((JSON.parse(exported.stdout) as { environments: Record<string, { wire?: unknown }> }).environments.local?.wire).toEqual({
      page: { base: 0, shape: 'nested' },
    });
    const bad = `${server.dataDir}/bad-envs.json`;
    await writeFile(bad, JSON.stringify({ environments: { qa: { baseUrl: 'https://qa.example.com', wire: { page: { base: 'one' } } } } }));
    const refused = await server.pla(['config', 'import', bad]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('environment qa: page.base=one');
    expect((await server.pla(['config', 'set-wire', '--unset'])).exitCode).toBe(0);
  });
});

describe('a stored profile that no longer fits the service', () => {
  it('pla doctor says which setting differs (exit 2); --all read by it exits 9, not 0', async () => {
    expect((await server.pla(['config', 'set-wire', 'page.base=1', 'page.maxSize=7'])).exitCode).toBe(0);
    const doctor = await server.pla(['doctor', '-o', 'table']);
    expect(doctor.exitCode).toBe(2);
    expect(doctor.stdout).toMatch(/✗ wire profile .*page\.base: 1 stored, 0 now/);

    const all = await server.pla(['det', 'list', '--all', '--size', '10', '-q']);
    expect(all.exitCode).toBe(9);
    expect(all.stderr).toMatch(/pla listed \d+ records where the service counts 30/);
    expect(all.stderr).toContain('pla doctor');

    const detect = await server.pla(['config', 'detect']);
    expect(detect.exitCode, detect.stderr).toBe(0);
    expect((await server.pla(['doctor'])).exitCode).toBe(0);
    const again = await server.pla(['det', 'list', '--all', '--size', '10', '-q']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout.split('\n').filter(Boolean)).toHaveLength(30);
  });
});
