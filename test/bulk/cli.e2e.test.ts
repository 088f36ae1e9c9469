/**
 * Bulk jobs end to end: the built CLI against the real local server.
 */
import { execa } from 'execa';
import { readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { tempDir } from './helpers.js';

let server: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  // Latency makes each batch take a while, so a run can be interrupted midway.
  server = await startLocalServer({ seed: false, args: ['--latency', '50'] });
  temp = await tempDir();
});
afterAll(async () => {
  await server?.stop();
  await temp?.cleanup();
});

async function listAll(resource: string): Promise<Array<Record<string, unknown>>> {
  const result = await server.pla([resource, 'list', '--all', '--size', '1000', '-o', 'ndjson']);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return String(result.stdout)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** How many stored determinations carry each ref. */
async function refCounts(prefix: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const record of await listAll('determinations')) {
    const ref = String(record.ref);
    if (ref.startsWith(prefix)) counts.set(ref, (counts.get(ref) ?? 0) + 1);
  }
  return counts;
}

describe('pla determinations upsert --file (bulk)', () => {
  it('resumes after Ctrl-C from the checkpoint: every record stored exactly once', async () => {
    const total = 3000;
    const file = temp.path('big.ndjson');
    await writeFile(file, Array.from({ length: total }, (_, i) => JSON.stringify({ ref: `int-${i}`, amount: i })).join('\n'));
    const checkpoint = temp.path('big.checkpoint.json');
    const args = ['determinations', 'upsert', '--file', file, '--batch-size', '50', '--concurrency', '1', '--checkpoint', checkpoint];

    // Spawned directly (not through server.pla) to be able to send it SIGINT.
    const first = execa('node', ['bin/pla.js', ...args], { env: { PLA_CONFIG_DIR: server.configDir, NO_COLOR: '1' }, stdin: 'ignore', reject: false });
    // Wait (not a timing assertion) until a few batches are done, then press Ctrl-C.
    for (;;) {
      const text = await readFile(checkpoint, 'utf8').catch(() => '');
      if (text && (JSON.parse(text) as { finished: number[] }).finished.length >= 3) break;
      await sleep(20);
    }
    first.kill('SIGINT');
    const interrupted = await first;
    expect(interrupted.exitCode, String(interrupted.stderr)).toBe(130);
    const saved = JSON.parse(await readFile(checkpoint, 'utf8')) as { finished: number[] };
    expect(saved.finished.length).toBeLessThan(total / 50);

    const second = await server.pla(args);
    expect(second.exitCode, String(second.stderr)).toBe(0);
    expect(String(second.stderr)).toMatch(new RegExp(`skipped ${(saved.finished.length * 50).toLocaleString('en-US')}`));

    const counts = await refCounts('int-');
    expect(counts.size).toBe(total);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('exits 9 on partial failure with the refused records in the rejects file, which can be fixed and fed back', async () => {
    const file = temp.path('partial.csv');
    await writeFile(file, 'ref,status,amount\npf-1,ACTIVE,1\npf-2,BOGUS,2\npf-3,ACTIVE,3\npf-4,WRONG,4\npf-5,ACTIVE,5\n');
    const rejects = temp.path('partial-rejects.csv');
    const run = await server.pla(['determinations', 'upsert', '--file', file, '--batch-size', '5', '--rejects', rejects]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    const text = await readFile(rejects, 'utf8');
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('ref,status,amount,_line,_error,_raw');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual(['pf-2,BOGUS,2', 'pf-4,WRONG,4']);
    expect(lines[1]).toMatch(/status/);
    expect([...(await refCounts('pf-')).keys()].sort()).toEqual(['pf-1', 'pf-3', 'pf-5']);

    await writeFile(rejects, text.replace('BOGUS', 'ACTIVE').replace('WRONG', 'DECOMMISSIONED'));
    const rerun = await server.pla(['determinations', 'upsert', '--file', rejects]);
    expect(rerun.exitCode, String(rerun.stderr)).toBe(0);
    const counts = await refCounts('pf-');
    expect([...counts.keys()].sort()).toEqual(['pf-1', 'pf-2', 'pf-3', 'pf-4', 'pf-5']);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });
});

it('a file holding one record still honours --rejects (exit 9, the record in the rejects file)', async () => {
  const file = temp.path('one.ndjson');
  await writeFile(file, '{"ref":"one-1","status":"NOT-A-STATUS"}\n');
  const rejects = temp.path('one-rejects.ndjson');
  const run = await server.pla(['determinations', 'upsert', '--file', file, '--rejects', rejects]);
  expect(run.exitCode, String(run.stderr)).toBe(9);
  const [rejected] = (await readFile(rejects, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(rejected).toMatchObject({ ref: 'one-1', status: 'NOT-A-STATUS', _error: expect.stringContaining('status') as unknown });
});

it('skips an unreadable row, names its line, stores the rest, and exits 9', async () => {
  const file = temp.path('bad-row.ndjson');
  await writeFile(file, '{"ref":"br-1"}\n{"ref": br-2}\n{"ref":"br-3"}\n');
  const run = await server.pla(['determinations', 'upsert', '--file', file]);
  expect(run.exitCode, String(run.stderr)).toBe(9);
  expect(String(run.stderr)).toMatch(/line 2/);
  expect(String(run.stderr)).toMatch(/1 input row was unreadable/);
  expect([...(await refCounts('br-')).keys()].sort()).toEqual(['br-1', 'br-3']);
});

describe('rejects file format', () => {
  const input = 'ref,status\nrf-1,BOGUS\nrf-2,ACTIVE\n';

  it('follows the rejects file extension over the input format (csv piped in, .ndjson rejects)', async () => {
    const rejects = temp.path('rf-rejects.ndjson');
    const run = await server.pla(['determinations', 'upsert', '--file', '-', '--format', 'csv', '--batch-size', '5', '--rejects', rejects], { input });
    expect(run.exitCode, String(run.stderr)).toBe(9);
    const lines = (await readFile(rejects, 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([{ ref: 'rf-1', status: 'BOGUS' }]);
  });

  it("uses the input's format when the rejects file's extension names none (csv file, .txt rejects)", async () => {
    const file = temp.path('rf-input.csv');
    await writeFile(file, input.replaceAll('rf-', 'rg-'));
    const rejects = temp.path('rg-rejects.txt');
    const run = await server.pla(['determinations', 'upsert', '--file', file, '--batch-size', '5', '--rejects', rejects]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect((await readFile(rejects, 'utf8')).split('\n')[0]).toBe('\uFEFFref,status,_line,_error,_raw');
  });
});

describe('destructive bulk commands', () => {
  let ids: number[];
  beforeAll(async () => {
    const file = temp.path('decommission.ndjson');
    await writeFile(file, ['dc-1', 'dc-2', 'dc-3'].map((ref) => JSON.stringify({ ref })).join('\n'));
    expect((await server.pla(['determinations', 'upsert', '--file', file])).exitCode).toBe(0);
    ids = (await listAll('determinations')).filter((r) => String(r.ref).startsWith('dc-')).map((r) => Number(r.id));
  });

  const statuses = async () => (await listAll('determinations')).filter((r) => ids.includes(Number(r.id))).map((r) => r.status);

  it('--dry-run changes nothing', async () => {
    const idsFile = temp.path('dc-ids.txt');
    await writeFile(idsFile, ids.join('\n'));
    const run = await server.pla(['determinations', 'decommission', '--ids-file', idsFile, '--dry-run']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(await statuses()).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
  });

  it('refuses without --yes when stdin is not a terminal', async () => {
    const run = await server.pla(['determinations', 'decommission', ...ids.map(String)]);
    expect(run.exitCode).toBe(2);
    expect(String(run.stderr)).toMatch(/--yes/);
    expect(await statuses()).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
  });

  it('decommissions from an ids file with --yes', async () => {
    const idsFile = temp.path('dc-ids.csv');
    await writeFile(idsFile, `name,determination\n${ids.map((id, i) => `n${i},${id}`).join('\n')}\n`);
    const run = await server.pla(['determinations', 'decommission', '--ids-file', idsFile, '--id-field', 'determination', '--yes']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(await statuses()).toEqual(['DECOMMISSIONED', 'DECOMMISSIONED', 'DECOMMISSIONED']);
  });

  it('search → cancel through a pipe cancels exactly the pending tasks', async () => {
    const tasks = temp.path('tasks.ndjson');
    const wanted = ['PENDING', 'PENDING', 'RUNNING', 'PENDING', 'COMPLETED'];
    await writeFile(tasks, wanted.map((status, i) => JSON.stringify({ ref: `task-${i}`, status })).join('\n'));
    expect((await server.pla(['tasks', 'upsert', '--file', tasks])).exitCode).toBe(0);

    const pla = `node ${JSON.stringify(`${process.cwd()}/bin/pla.js`)}`;
    const pipe = await execa(`${pla} tasks search --filter '{"status":"PENDING"}' --all -q | ${pla} tasks cancel --ids-file - --yes`, {
      shell: true,
      env: { PLA_CONFIG_DIR: server.configDir, NO_COLOR: '1' },
      reject: false,
    });
    expect(pipe.exitCode, String(pipe.stderr)).toBe(0);

    const after = new Map((await listAll('tasks')).map((t) => [String(t.ref), t]));
    expect(wanted.map((_, i) => after.get(`task-${i}`)?.status)).toEqual(['CANCELLED', 'CANCELLED', 'RUNNING', 'CANCELLED', 'COMPLETED']);

    const cancelled = [0, 1, 3].map((i) => String(after.get(`task-${i}`)?.id));
    const watch = await server.pla(['tasks', 'watch', ...cancelled, '--interval', '1', '-o', 'json']);
    // The watch ends at once: every task is already in a final state (not COMPLETED, so not a success).
    expect(watch.exitCode, String(watch.stderr)).toBe(9);
    for (const id of cancelled) expect(`${String(watch.stdout)}${String(watch.stderr)}`).toMatch(new RegExp(`\\b${id}\\b[^\\n]*CANCELLED`));
  });
});
