/**
 * Reruns converge: after Ctrl-C stopped `tasks cancel --ids-file F --yes`, the same
 * command again cancels the rest and counts the tasks the first run cancelled as
 * done ("already cancelled", read back), exit 0; a single cancel of a cancelled task
 * too. A task that cannot be cancelled (COMPLETED) is still refused. The first run
 * is a real process interrupted with SIGINT, against the real local server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS_PREFIX } from '../../src/contract/operations.js';
import { eventually } from '../support/eventually.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { BIN } from './support.js';

let server: LocalServer;
let folder: string;
let ids: number[];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'pla-rerun-'));
  // Each request waits a little, so Ctrl-C lands while batches are still to go.
  server = await startLocalServer({ args: ['--latency', '20'] });
  const file = join(folder, 'tasks.ndjson');
  await writeFile(file, Array.from({ length: 120 }, (_, i) => JSON.stringify({ batch: `rerun-${i}` })).join('\n'));
  const made = await server.pla(['tasks', 'upsert', '--file', file, '-o', 'json']);
  expect(made.exitCode, made.stderr).toBe(0);
  ids = (JSON.parse(made.stdout) as Array<{ id: number }>).map((task) => task.id);
  expect(ids).toHaveLength(120);
});

afterAll(async () => {
  await server?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const statusOf = async (id: number) => (JSON.parse((await server.pla(['tasks', 'get', String(id), '-o', 'json'])).stdout) as { status: string }).status;

describe('a rerun after an interrupt', () => {
  it('cancels the rest and counts the tasks already cancelled as done, exit 0', async () => {
    const idsFile = join(folder, 'ids.txt');
    await writeFile(idsFile, ids.join('\n'));
    const args = ['tasks', 'cancel', '--ids-file', idsFile, '--yes', '--batch-size', '10', '--concurrency', '1'];
    const first = execa('node', [BIN, ...args], { env: { PLA_CONFIG_DIR: server.configDir, NO_COLOR: '1' }, reject: false });
    // Ctrl-C once the service has cancelled a batch.
    await eventually(
      async () => {
        const log = (await server.http('GET', '/_admin/requests?limit=500')).body as { data: Array<{ path: string; status: number }> };
        return log.data.some((r) => r.path === `${TASKS_PREFIX}/cancel/bulk` && r.status === 200);
      },
      60_000,
      10,
    );
    first.kill('SIGINT');
    const stopped = await first;
    // Stopped by Ctrl-C, or done already when it came late: either way some tasks are cancelled now.
    expect([0, 130]).toContain(stopped.exitCode);
    expect(await statusOf(ids[0] as number)).toBe('CANCELLED');

    const rerun = await server.pla(args);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/^cancelled 120 \(\d+ of them already cancelled\), failed 0/m);
    expect(rerun.stderr).not.toMatch(/reject|fix them/);
    const tasks = await server.pla(['tasks', 'get', ...ids.map(String), '-o', 'json']);
    expect((JSON.parse(tasks.stdout) as Array<{ status: string }>).filter((task) => task.status === 'CANCELLED')).toHaveLength(120);
  });

  it('a single cancel of a cancelled task is done, exit 0', async () => {
    const again = await server.pla(['tasks', 'cancel', String(ids[0]), '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^task \d+ already cancelled; read back: CANCELLED$/m);
  });

  it('a task that cannot be cancelled is still refused, alone or among others', async () => {
    const completed = (JSON.parse((await server.pla(['tasks', 'list', '--status', 'COMPLETED', '-o', 'json'])).stdout) as Array<{ id: number }>)[0]?.id;
    expect(completed).toBeDefined();
    const alone = await server.pla(['tasks', 'cancel', String(completed), '--yes']);
    expect(alone.exitCode).toBe(5);
    const mixed = await server.pla(['tasks', 'cancel', String(ids[1]), String(completed), '--yes']);
    expect(mixed.exitCode).toBe(9);
    expect(mixed.stderr).toMatch(/^cancelled 1 \(1 of them already cancelled\), failed 1/m);
    expect(await statusOf(completed as number)).toBe('COMPLETED');
  });
});

describe('decommission again', () => {
  it('a record already decommissioned counts as done, one id or several; a delete of an id not found stays not found', async () => {
    const made = await server.pla(['det', 'create', '--data', JSON.stringify([{ code: 'RR-1' }, { code: 'RR-2' }, { code: 'RR-3' }]), '-o', 'json']);
    const [a, b, c] = (JSON.parse(made.stdout) as Array<{ id: number }>).map((r) => String(r.id));
    expect((await server.pla(['det', 'decommission', a as string, '--yes'])).exitCode).toBe(0);
    const again = await server.pla(['det', 'decommission', a as string, '--yes']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already decommissioned; read back: decommissioned/);
    const both = await server.pla(['det', 'decommission', a as string, b as string, '--yes']);
    expect(both.exitCode, both.stderr).toBe(0);
    expect(both.stderr).toMatch(/^decommissioned 2 \(1 of them already decommissioned\)/m);

    expect((await server.pla(['det', 'delete', c as string, '--yes'])).exitCode).toBe(0);
    expect((await server.pla(['det', 'delete', c as string, '--yes'])).exitCode).toBe(4);
  });
});
