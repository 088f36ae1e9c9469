/**
 * kill -9 of the CLI in the middle of `pla apply`: the receipt holds every record
 * the service acknowledged, and undoing that partial run puts them back. Records
 * of the batch in flight when the CLI died may be stored without being in the
 * receipt (the service applied them, the CLI never heard): at most one batch.
 */
import { execa } from 'execa';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { tempDir } from '../bulk/helpers.js';

type Row = Record<string, unknown>;

let server: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  // Latency makes each batch take a while, so the CLI can be killed midway.
  server = await startLocalServer({ seed: false, args: ['--latency', '40'] });
  temp = await tempDir();
});
afterAll(async () => {
  await server?.stop();
  await temp?.cleanup();
});

async function exportAll(): Promise<Row[]> {
  const result = await server.pla(['determinations', 'list', '--all', '--size', '1000', '-o', 'ndjson']);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return String(result.stdout)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);
}

const withoutStamp = ({ updatedAt: _stamp, ...rest }: Row): Row => rest;

/** Record lines in the one receipt of the runs folder (0 until it exists). */
async function receiptRecordLines(): Promise<number> {
  const dir = join(server.configDir, 'runs');
  const names = await readdir(dir).catch(() => [] as string[]);
  const texts = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')));
  return texts.reduce((sum, text) => sum + text.split('\n').filter((line) => line.startsWith('{"type":"record"')).length, 0);
}

describe('kill -9 of the CLI mid-apply', () => {
  it('leaves a receipt of every acknowledged record, and the partial run can be undone', async () => {
    const batch = 20;
    const seed = temp.path('seed.ndjson');
    await writeFile(seed, Array.from({ length: 2000 }, (_, i) => JSON.stringify({ ref: `crash-${i}`, amount: i })).join('\n'));
    expect((await server.pla(['determinations', 'create', '--file', seed])).exitCode).toBe(0);
    const before = await exportAll();
    const sheet = temp.path('sheet.ndjson');
    await writeFile(sheet, before.map((row) => JSON.stringify({ id: row.id, amount: Number(row.amount) + 0.5 })).join('\n'));
    const planFile = temp.path('plan.json');
    expect((await server.pla(['determinations', 'upsert', '--file', sheet, '--plan-out', planFile, '-o', 'json'])).exitCode).toBe(0);

    // Only the apply's receipt is left, so the one in the folder is the one watched.
    expect((await server.pla(['runs', 'prune', '--all'])).exitCode).toBe(0);
    const apply = execa('node', ['bin/pla.js', 'apply', planFile, '--batch-size', String(batch), '--concurrency', '1'], {
      env: { PLA_CONFIG_DIR: server.configDir, NO_COLOR: '1' },
      stdin: 'ignore',
      reject: false,
    });
    // Wait (no timing assertion) until several batches are acknowledged, then kill -9.
    const deadline = Date.now() + 120_000;
    while ((await receiptRecordLines()) < 5 * batch) {
      if (Date.now() > deadline) throw new Error('the apply never got going');
      await sleep(10);
    }
    apply.kill('SIGKILL');
    const killed = await apply;
    expect(killed.signal).toBe('SIGKILL');

    const shown = await server.pla(['runs', 'show', 'last', '-o', 'json']);
    const receipt = JSON.parse(String(shown.stdout)) as { run: string; end: unknown; records: Array<{ id: number; action: string; before: Row; after: Row }> };
    expect(receipt.end).toBeNull();
    const list = await server.pla(['runs', 'list', '-o', 'json']);
    expect(JSON.parse(String(list.stdout))).toEqual([expect.objectContaining({ run: receipt.run, exitCode: 'unfinished' })]);

    const stored = new Map((await exportAll()).map((row) => [row.id as number, row]));
    const changed = before.filter((row) => stored.get(row.id as number)?.amount !== row.amount).map((row) => row.id as number);
    const acknowledged = receipt.records.map((line) => line.id);
    expect(acknowledged.length).toBeGreaterThanOrEqual(5 * batch);
    expect(acknowledged.length).toBeLessThan(before.length);
    // Every acknowledged record is stored as the receipt says, with the state it had before.
    for (const line of receipt.records) {
      expect(line.action).toBe('update');
      expect(stored.get(line.id)).toEqual(line.after);
      expect(line.before).toEqual(before.find((row) => row.id === line.id));
    }
    const unheard = changed.filter((id) => !acknowledged.includes(id));
    expect(unheard.length).toBeLessThanOrEqual(batch);

    const undo = await server.pla(['runs', 'undo', receipt.run, '--yes']);
    expect(undo.exitCode, String(undo.stderr)).toBe(0);
    const after = await exportAll();
    const unknown = new Set(unheard);
    expect(after.filter((row) => !unknown.has(row.id as number)).map(withoutStamp)).toEqual(
      before.filter((row) => !unknown.has(row.id as number)).map(withoutStamp),
    );
  });
});
