/**
 * Deletes converge where there is reason to count "not found" as done: with
 * `--ignore-not-found` (as `kubectl delete --ignore-not-found`) a delete or remove
 * of an id already gone is done, "already gone" (exit 0, said in the summary and
 * the receipt), one id or several; without it a delete of an id not found stays
 * exit 4 (it may be a mistyped id). A rerun with --checkpoint of a run killed while
 * its batch was in flight counts the 404s of that batch as done without the flag:
 * the run itself sent those ids. Against the real local server, through the built
 * CLI as real processes (the killed run through a proxy holding its answer back).
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startHoldingProxy } from '../support/holding-proxy.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { BIN } from '../support/run-pla.js';

let server: LocalServer;
let work: string;

beforeAll(async () => {
  [server, work] = await Promise.all([startLocalServer({ seed: false }), mkdtemp(join(tmpdir(), 'pla-gone-'))]);
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The built CLI as a process of its own, against `url` (the server unless a proxy is named), with the server's config folder unless told another. */
function pla(args: string[], url = server.url, configDir = server.configDir) {
  return execa('node', [BIN, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: configDir, PLA_BASE_URL: url, PLA_API_KEY: server.adminKey, NO_COLOR: '1' },
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
  });
}

/** Creates `n` determinations and returns their ids. */
async function created(prefix: string, n: number): Promise<string[]> {
  const records = Array.from({ length: n }, (_, i) => ({ code: `${prefix}-${i}` }));
  const made = await pla(['det', 'create', '--data', JSON.stringify(records), '-o', 'json']);
  expect(made.exitCode, made.stderr).toBe(0);
  const answer = JSON.parse(made.stdout) as { id: number } | Array<{ id: number }>;
  return (Array.isArray(answer) ? answer : [answer]).map((record) => String(record.id));
}

/** The record lines of the newest receipt. */
async function lastReceiptRecords(): Promise<Array<Record<string, unknown>>> {
  const folder = join(server.configDir, 'runs');
  const newest = (await readdir(folder)).filter((name) => name.endsWith('.ndjson') && !name.startsWith('unknown-')).sort();
  const lines = (await readFile(join(folder, newest.at(-1) as string), 'utf8')).trim().split('\n');
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.type === 'record');
}

const exists = async (id: string) => (await pla(['det', 'get', id, '-o', 'json'])).exitCode === 0;

describe('--ignore-not-found', () => {
  it('a single delete of an id already gone is done, "already gone"; without the flag it stays exit 4', async () => {
    const [id] = (await created('one', 1)) as [string];
    expect((await pla(['det', 'delete', id, '--yes'])).exitCode).toBe(0);
    const again = await pla(['det', 'delete', id, '--yes']);
    expect(again.exitCode).toBe(4);
    const ignored = await pla(['det', 'delete', id, '--yes', '--ignore-not-found']);
    expect(ignored.exitCode, ignored.stderr).toBe(0);
    expect(ignored.stderr).toContain(`determination ${id} already gone; read back: not found`);
    expect(ignored.stderr).not.toContain('deleted determination');
    expect(await lastReceiptRecords()).toEqual([expect.objectContaining({ action: 'delete', id: Number(id), already: true })]);
  });

  it('several ids, some gone: the rest are deleted, the gone ones counted as already, exit 0', async () => {
    const [a, b, c] = (await created('many', 3)) as [string, string, string];
    expect((await pla(['det', 'delete', a, '--yes'])).exitCode).toBe(0);
    // Without the flag the gone id is refused (in the rejects file, exit 9) and the others deleted.
    const refused = await pla(['det', 'delete', a, b, '--yes']);
    expect(refused.exitCode).toBe(9);
    expect(refused.stderr).toMatch(/^deleted 1, failed 1/m);
    // The dry run counts as the run will: the gone id is done already, not refused.
    expect((await pla(['det', 'delete', a, c, '--dry-run'])).exitCode).not.toBe(0);
    const dry = await pla(['det', 'delete', a, c, '--dry-run', '--ignore-not-found']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/would delete 2 determinations .*, 1 of them already gone \(not found\); nothing was changed/);
    const dryRows = (await pla(['det', 'delete', a, c, '--dry-run', '--ignore-not-found', '-o', 'json'])).stdout;
    expect(JSON.parse(dryRows)).toEqual([{ id: Number(a), note: 'already gone' }, expect.objectContaining({ id: Number(c) })]);
    const ignored = await pla(['det', 'delete', a, b, c, '--yes', '--ignore-not-found']);
    expect(ignored.exitCode, ignored.stderr).toBe(0);
    expect(ignored.stderr).toMatch(/^deleted 3 \(2 of them already gone \(not found\)\), failed 0/m);
    expect(await exists(c)).toBe(false);
    const lines = await lastReceiptRecords();
    expect(
      lines
        .filter((line) => line.already === true)
        .map((line) => String(line.id))
        .sort(),
    ).toEqual([a, b].sort());
    expect(lines.find((line) => String(line.id) === c)).not.toHaveProperty('already');
  });

  it('remove says which ids were gone already', async () => {
    const [a, b] = (await created('remove', 2)) as [string, string];
    expect((await pla(['det', 'delete', a, '--yes'])).exitCode).toBe(0);
    expect((await pla(['det', 'remove', a, '--yes'])).exitCode).toBe(4);
    const one = await pla(['det', 'remove', a, '--yes', '--ignore-not-found', '-o', 'json']);
    expect(one.exitCode, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ id: Number(a), outcome: 'gone (already)' });
    const both = await pla(['det', 'remove', a, b, '--yes', '--ignore-not-found', '-o', 'json']);
    expect(both.exitCode, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout)).toEqual([
      { id: Number(a), outcome: 'gone (already)' },
      { id: Number(b), outcome: 'deleted' },
    ]);
  });

  it('where the service has no read by id (notifications), its 404 says the record is gone', async () => {
    expect((await pla(['notifications', 'delete', '999999', '--yes'])).exitCode).toBe(4);
    const one = await pla(['notifications', 'delete', '999999', '--yes', '--ignore-not-found']);
    expect(one.exitCode, one.stderr).toBe(0);
    expect(one.stderr).toContain('already gone: the service answered not found');
    const several = await pla(['notifications', 'delete', '999998', '999999', '--yes', '--ignore-not-found']);
    expect(several.exitCode, several.stderr).toBe(0);
  });

  it('a base URL with a wrong path prefix (404 to every path, read back included) passes no id for gone', async () => {
    const [id] = (await created('prefix', 1)) as [string];
    const wrong = `${server.url}/wrong-prefix`;
    const one = await pla(['det', 'delete', id, '--yes', '--ignore-not-found'], wrong);
    expect(one.exitCode, one.stderr).toBe(4);
    const several = await pla(['det', 'delete', id, '999999', '--yes', '--ignore-not-found'], wrong);
    expect(several.exitCode, several.stderr).toBe(9);
    expect(several.stderr).toMatch(/^deleted 0, failed 2/m);
    expect((await pla(['det', 'remove', id, '--yes', '--ignore-not-found'], wrong)).exitCode).toBe(4);
    const dry = await pla(['det', 'delete', id, '--dry-run', '--ignore-not-found'], wrong);
    expect(dry.exitCode, dry.stderr).not.toBe(0);
    expect(dry.stderr).not.toContain('already gone');
    expect(await exists(id)).toBe(true);
  });

  it('an undo of the run leaves what it found gone already as unchanged, not "cannot be undone"', async () => {
    const [a, b] = (await created('undo', 2)) as [string, string];
    expect((await pla(['det', 'delete', a, '--yes'])).exitCode).toBe(0);
    expect((await pla(['det', 'delete', a, b, '--yes', '--ignore-not-found'])).exitCode).toBe(0);
    const undo = await pla(['runs', 'undo', 'last', '--plan', '-o', 'json']);
    const plan = JSON.parse(undo.stdout) as { entries: Array<{ action: string; id?: number; reason?: string }> };
    const entryOf = (id: string) => plan.entries.find((entry) => String(entry.id) === id);
    expect(entryOf(a), undo.stderr).toEqual({ action: 'unchanged', id: Number(a), reason: 'the run found it already as asked and changed nothing of it' });
    // The one it deleted: not recorded before on this unprotected environment, so it cannot be re-created.
    expect(entryOf(b)?.action, undo.stderr).toBe('irreversible');
  });

  it('is offered on the verbs that delete, and only there', async () => {
    for (const verb of [
      ['det', 'delete'],
      ['det', 'remove'],
      ['settings', 'delete'],
      ['notifications', 'delete'],
      ['images', 'delete'],
    ])
      expect((await pla([...verb, '--help'])).stdout, verb.join(' ')).toContain('--ignore-not-found');
    for (const verb of [
      ['tasks', 'cancel'],
      ['det', 'decommission'],
    ])
      expect((await pla([...verb, '--help'])).stdout, verb.join(' ')).not.toContain('--ignore-not-found');
  });
});

describe('a rerun with --checkpoint after a kill while a delete was in flight', () => {
  it('counts the 404s of the batch the killed run sent as done (the run deleted them), exit 0, without --ignore-not-found', async () => {
    const ids = await created('inflight', 20);
    const idsFile = join(work, 'inflight.txt');
    await writeFile(idsFile, ids.join('\n'));
    const checkpoint = join(work, 'inflight.checkpoint.json');
    const args = ['det', 'delete', '--ids-file', idsFile, '--yes', '--batch-size', '10', '--concurrency', '1', '--checkpoint', checkpoint];
    // The service carries out the first batch; its answer never reaches the run. The key is left out on the way,
    // so the service keeps none to replay: the rerun's request under it is a new one, and meets 404s.
    const proxy = await startHoldingProxy(server.url, ({ method, path }) => method === 'DELETE' && path.endsWith('/bulk'), { dropIdempotencyKey: true });
    try {
      // A config folder of its own: the lock on the environment it leaves behind is not the rerun's to wait out.
      const first = pla(args, proxy.url, join(work, 'killed-config'));
      await eventually(() => Promise.resolve(proxy.held >= 1));
      first.kill('SIGKILL');
      await first;
    } finally {
      await proxy.close();
    }
    expect(JSON.parse(await readFile(checkpoint, 'utf8'))).toMatchObject({ finished: [], sending: [0] });
    expect(await exists(ids[0] as string)).toBe(false);

    const rerun = await pla(args);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/^deleted 20 \(10 of them already gone \(not found\)\), failed 0/m);
    for (const id of [ids[10], ids[19]]) expect(await exists(id as string)).toBe(false);

    // A 404 of an id no earlier attempt sent stays a failure (exit 9).
    const [a, b] = (await created('fresh', 2)) as [string, string];
    expect((await pla(['det', 'delete', a, '--yes'])).exitCode).toBe(0);
    const freshFile = join(work, 'fresh.txt');
    await writeFile(freshFile, `${a}\n${b}`);
    const run = await pla(['det', 'delete', '--ids-file', freshFile, '--yes', '--checkpoint', join(work, 'fresh.checkpoint.json')]);
    expect(run.exitCode).toBe(9);
    expect(run.stderr).toMatch(/^deleted 1, failed 1/m);
  });
});
