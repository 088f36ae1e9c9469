/**
 * End to end against the real local server (`pla server start`): the CLI finds it
 * through the config the server writes, creates, lists, decommissions, and maps a
 * real 404 to exit 4.
 */
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOUNS, counted } from '../../src/contract/wording.js';
import { BIN, pla, tempDir } from './support.js';

let config: Awaited<ReturnType<typeof tempDir>>;
let data: Awaited<ReturnType<typeof tempDir>>;
let server: ResultPromise | undefined;

beforeAll(async () => {
  [config, data] = await Promise.all([tempDir(), tempDir('pla-cli-data-')]);
  server = execa('node', [BIN, 'server', 'start', '--port', '0', '--data', data.path, '--no-seed', '--env-name', 'local'], {
    env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: config.path },
    extendEnv: false,
    reject: false,
  });
  const proc = server;
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    proc.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('listening on')) resolve();
    });
    proc.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
});

afterAll(async () => {
  server?.kill('SIGTERM');
  await server;
  await Promise.all([config.remove(), data.remove()]);
});

const run = (args: string[], input?: string) => pla(args, { configDir: config.path, input });

describe('against the local server', () => {
  it('creates, lists, decommissions and reports a real 404', async () => {
    const one = await run(['det', 'create', '--data', JSON.stringify({ name: 'lease-a', company: 'C1' })]);
    expect(one.stderr).toBe('');
    const created = JSON.parse(one.stdout) as { id: number; name: string };
    expect(created).toMatchObject({ name: 'lease-a' });

    const many = await run(['det', 'create', '--file', '-', '--format', 'ndjson'], '{"name":"lease-b"}\n{"name":"lease-c"}\n');
    expect(many.exitCode).toBe(0);
    expect(many.stderr).toMatch(/2/);

    const list = await run(['det', 'list', '--all', '-o', 'ndjson', '--fields', 'id,name']);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).name),
    ).toEqual(['lease-a', 'lease-b', 'lease-c']);

    const dry = await run(['det', 'decommission', String(created.id), '--dry-run']);
    expect(JSON.parse(dry.stdout)[0]).toMatchObject({ id: created.id, name: 'lease-a' });

    const done = await run(['det', 'decommission', String(created.id), '--yes']);
    expect(done.exitCode).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ id: created.id, status: 'DECOMMISSIONED' });

    const missing = await run(['det', 'get', '987654']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^error: .*404/);
  });

  it('a --before-now dry run lists exactly the records the real call decommissions', async () => {
    await run(['det', 'create', '--file', '-', '--format', 'ndjson'], '{"name":"lease-d"}\n{"name":"lease-e"}\n');
    const first = await run(['det', 'list', '--all', '-q']);
    await run(['det', 'decommission', first.stdout.split('\n')[0] ?? '', '--yes']);
    const ids = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: number }).id);
    const all = (await run(['det', 'list', '--all', '-o', 'ndjson'])).stdout;
    const active = all
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; status: string })
      .filter((r) => r.status === 'ACTIVE')
      .map((r) => r.id);
    expect(active.length).toBeGreaterThan(0);
    expect(active.length).toBeLessThan(ids(all).length);

    const dry = await run(['det', 'decommission', '--before-now', '--dry-run', '-o', 'ndjson']);
    expect(dry.exitCode).toBe(0);
    expect(ids(dry.stdout)).toEqual(active);
    expect(dry.stderr).toContain(`would decommission ${counted(active.length, NOUNS.determinations)}`);

    const done = await run(['det', 'decommission', '--before-now', '--yes', '-o', 'ndjson']);
    expect(done.exitCode).toBe(0);
    expect(ids(done.stdout).sort((a, b) => a - b)).toEqual(active);
  });
});
