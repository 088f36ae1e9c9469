/**
 * Every command family once through the built CLI as a process (`node bin/pla.js`),
 * against the real local server: the rest of the suite runs `pla` in-process by
 * default (test/support/run-pla.ts), so this file keeps each family's real wiring
 * (bundle, lazy handler chunks, the process's environment, stdin from a real pipe,
 * exit codes as the shell sees them) exercised on every run.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../support/local-server.js';
import { runCliProcess, type CliResult } from '../support/run-pla.js';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer();
});

afterAll(async () => {
  await server?.stop();
});

/** `pla args…` as a process with the server's config folder (environment local). */
function pla(args: string[], input?: string): Promise<CliResult> {
  return runCliProcess(args, {
    env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: server.configDir, NO_COLOR: '1' },
    cwd: server.configDir,
    ...(input !== undefined ? { input } : {}),
  });
}

/** The JSON stdout of a run that must succeed. */
function json(result: CliResult): unknown {
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as unknown;
}

describe('each command family as a process', () => {
  it('determinations, apply and runs: a write from a piped stdin, its plan applied, its receipt listed', async () => {
    const made = await pla(['det', 'upsert', '--file', '-', '--format', 'ndjson', '-q'], '{"code":"WIRED-1","name":"wired"}\n');
    expect(made.exitCode, made.stderr).toBe(0);
    const listed = (await server.http('GET', '/api/v1/asset-transaction-type-determinations?size=1000')).body as {
      content?: Array<{ code?: string; id: number }>;
    };
    const record = listed.content?.find((r) => r.code === 'WIRED-1');
    expect(record).toBeDefined();
    expect(json(await pla(['det', 'get', String(record?.id), '-o', 'json']))).toMatchObject({ code: 'WIRED-1', name: 'wired' });

    const plan = join(server.configDir, 'wired-plan.json');
    const input = join(server.configDir, 'wired.ndjson');
    await writeFile(input, `${JSON.stringify({ id: record?.id, code: 'WIRED-1', name: 'wired again' })}\n`);
    const planned = await pla(['det', 'upsert', '--file', input, '--plan-out', plan]);
    expect(planned.exitCode, planned.stderr).toBe(0);
    const applied = await pla(['apply', plan, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(
      ((await server.http('GET', `/api/v1/asset-transaction-type-determinations/${String(record?.id)}`)).body as { data: { name: string } }).data.name,
    ).toBe('wired again');

    const runs = json(await pla(['runs', 'list', '-o', 'json'])) as Array<{ command: string }>;
    expect(runs.map((run) => run.command)).toEqual(expect.arrayContaining([expect.stringContaining('apply')]));
  });

  it('settings, tasks, notifications, topics and api read the seeded data', async () => {
    expect(json(await pla(['settings', 'list', '--size', '1', '-o', 'json']))).toHaveLength(1);
    expect(json(await pla(['tasks', 'list', '--size', '1', '-o', 'json']))).toHaveLength(1);
    expect(json(await pla(['notifications', 'count', 'ana', '-o', 'json']))).toBeDefined();
    expect(Array.isArray(json(await pla(['topics', 'list', 'portfolio', '-o', 'json'])))).toBe(true);
    expect(json(await pla(['api', 'GET', '/api/v1/asset-transaction-type-determinations', '--param', 'size=1']))).toMatchObject({ content: expect.any(Array) });
  });

  it('images: a delete of an id that is not there exits 4 (not found)', async () => {
    const missing = await pla(['images', 'delete', '987654321', '--yes']);
    expect(missing.exitCode, missing.stderr).toBe(4);
  });

  it('config, server, doctor and completion', async () => {
    const set = await pla(['config', 'set-url', 'https://qa.example.com', '--env', 'qa']);
    expect(set.exitCode, set.stderr).toBe(0);
    const stored = JSON.parse(await readFile(join(server.configDir, 'config.json'), 'utf8')) as { environments: Record<string, { baseUrl?: string }> };
    expect(stored.environments.qa?.baseUrl).toBe('https://qa.example.com');

    expect(json(await pla(['server', 'health', '-o', 'json']))).toMatchObject({ status: expect.any(String) });
    const doctor = await pla(['doctor', '-o', 'json']);
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    const completion = await pla(['completion', 'bash']);
    expect(completion.exitCode, completion.stderr).toBe(0);
    expect(completion.stdout).toContain('pla __complete');
  });

  it('a usage error exits 2 with one line on stderr and nothing on stdout', async () => {
    const wrong = await pla(['det', 'get', '--no-such-flag']);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toMatch(/unknown option/);
  });
});
