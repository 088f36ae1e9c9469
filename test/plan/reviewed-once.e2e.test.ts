/**
 * What was reviewed is what is applied, once: a saved plan edited by hand is
 * refused (naming the entry), the production prompt shows what would change, a
 * run is undone once (twice in a row or two processes at once), and a receipt
 * that cannot be read is listed as damaged and blocks what depends on it. The
 * CLI against the real local server; the store is read back after each step.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliProcess } from '../support/run-pla.js';
import { runInTerminal } from '../support/terminal.js';
import { rowFiles, serverWithFolder } from '../bulk/helpers.js';

type Row = Record<string, unknown>;

const files = serverWithFolder();
const rows = rowFiles(files);
const pla = files.pla;

/** Creates `n` records `<prefix>-i` (amount i) and returns them in id order. */
async function seed(prefix: string, n: number): Promise<Row[]> {
  const input = await rows.file(
    `${prefix}.ndjson`,
    Array.from({ length: n }, (_, i) => JSON.stringify({ ref: `${prefix}-${i + 1}`, amount: i + 1 })).join('\n'),
  );
  const created = await pla(['determinations', 'create', '--file', input]);
  expect(created.exitCode, created.stderr).toBe(0);
  return rows.all(prefix);
}

/** An upsert file setting `amount` on each record, and the plan of it saved to `name`. */
async function savedUpdatePlan(prefix: string, records: Row[], amount: number, name: string, env: string[] = []): Promise<string> {
  const input = await rows.file(`${name}.ndjson`, records.map((row) => JSON.stringify({ id: row.id, amount })).join('\n'));
  const out = files.temp().path(name);
  const planned = await files.server().pla(['determinations', 'upsert', '--file', input, '--plan-out', out, ...env], {
    cwd: files.temp().dir,
    env: env.length > 0 ? { PLA_BASE_URL: files.server().url, PLA_API_KEY: files.server().adminKey } : {},
  });
  expect(planned.exitCode, planned.stderr).toBe(0);
  return out;
}

const receiptsDir = () => join(files.server().configDir, 'runs');
const receiptOf = (run: string) => join(receiptsDir(), `${run}.ndjson`);

async function lastRun(): Promise<string> {
  const shown = await pla(['runs', 'show', 'last', '-o', 'json']);
  expect(shown.exitCode, shown.stderr).toBe(0);
  return (JSON.parse(shown.stdout) as { run: string }).run;
}

/** Deletes `records` with a receipt holding each record before (a plan's delete), and returns the run. */
async function deletedRun(records: Row[], name: string): Promise<string> {
  const ids = await rows.file(`${name}.ids`, records.map((row) => String(row.id)).join('\n'));
  const out = files.temp().path(`${name}.plan.json`);
  expect((await pla(['determinations', 'delete', '--ids-file', ids, '--plan-out', out])).exitCode).toBe(0);
  const applied = await pla(['apply', out, '--yes']);
  expect(applied.exitCode, applied.stderr).toBe(0);
  return lastRun();
}

describe('a saved plan is applied as it was reviewed', () => {
  it('refuses a plan edited by hand, naming the entry and sending nothing; the plan as made applies', async () => {
    const records = await seed('edited', 3);
    const path = await savedUpdatePlan('edited', records, 10, 'edited.plan.json');
    const plan = JSON.parse(await readFile(path, 'utf8')) as { entries: Array<{ record: Row }> };
    (plan.entries[1] as { record: Row }).record.amount = 999_999;
    const edited = files.temp().path('edited-by-hand.plan.json');
    await writeFile(edited, JSON.stringify(plan, null, 1));

    const refused = await pla(['apply', edited, '--yes']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`is not the plan that was reviewed: entry 2 (update of id ${String(records[1]?.id)}, line 2)`);
    expect(refused.stderr).toContain('nothing was sent');
    expect((await rows.all('edited')).map((row) => row.amount)).toEqual([1, 2, 3]);

    // Without its digest (or with an older plan's lack of one) it is refused too.
    const { digest: _digest, ...bare } = plan as { digest?: unknown };
    await writeFile(edited, JSON.stringify(bare));
    expect((await pla(['apply', edited, '--yes'])).stderr).toContain('its digest (missing');

    const applied = await pla(['apply', path, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect((await rows.all('edited')).map((row) => row.amount)).toEqual([10, 10, 10]);
  });

  it('shows the first changes, the counts and the digest above the production prompt, on a real terminal', async () => {
    const records = await seed('prompted', 2);
    const path = await savedUpdatePlan('prompted', records, 20, 'prompted.plan.json', ['-e', 'production']);
    const server = files.server();
    const run = await runInTerminal(['apply', path, '-e', 'production'], {
      columns: 120,
      env: { PLA_CONFIG_DIR: server.configDir, PLA_BASE_URL: server.url, PLA_API_KEY: server.adminKey, NO_COLOR: '1' },
      input: 'production\n',
      cwd: files.temp().dir,
    });
    const screen = run.lines.map((line) => line.text).join('\n');
    expect(run.exitCode, run.raw).toBe(0);
    const [first, second] = records.map((row) => String(row.id));
    expect(screen).toContain(`~ update ${first}`);
    expect(screen).toContain('amount: 1 → 20');
    expect(screen).toContain(`~ update ${second}`);
    expect(screen).toContain('amount: 2 → 20');
    expect(screen).toMatch(/Plan: 2 to update\. Digest sha256:[0-9a-f]{16}\./);
    expect(screen).toContain('Type the environment name (production) to confirm:');
    expect(screen.indexOf('amount: 1 → 20')).toBeLessThan(screen.indexOf('Type the environment name'));
    expect((await rows.all('prompted')).map((row) => row.amount)).toEqual([20, 20]);
  });
});

describe('a run is undone once', () => {
  it('refuses a second undo of the same run (or its undo saved as a plan), saying what the first did; the record is re-created once', async () => {
    const run = await deletedRun(await seed('undone-twice', 1), 'undone-twice');
    expect(await rows.all('undone-twice')).toEqual([]);
    // The same undo saved as a plan, to be applied after the run was undone.
    const saved = files.temp().path('undone-twice.undo.json');
    expect((await pla(['runs', 'undo', run, '--plan-out', saved])).exitCode).toBe(0);
    const first = await pla(['runs', 'undo', run, '--yes']);
    expect(first.exitCode, first.stderr).toBe(0);
    const undo = await lastRun();
    const second = await pla(['runs', 'undo', run, '--yes']);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toContain(`run ${run} was undone already, by run ${undo}`);
    expect(second.stderr).toContain('exit 0: create 1');
    const applied = await pla(['apply', saved, '--yes']);
    expect(applied.exitCode).toBe(2);
    expect(applied.stderr).toContain(`run ${run} was undone already, by run ${undo}`);
    expect(await rows.all('undone-twice')).toEqual([expect.objectContaining({ ref: 'undone-twice-1', amount: 1 })]);
  });

  it('of two undos started at once (two processes), one undoes and the other is refused', async () => {
    const run = await deletedRun(await seed('undone-at-once', 2), 'undone-at-once');
    const server = files.server();
    const undo = () =>
      runCliProcess(['runs', 'undo', run, '--yes'], {
        env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: server.configDir, NO_COLOR: '1' },
        cwd: files.temp().dir,
      });
    const results = await Promise.all([undo(), undo()]);
    expect(results.map((result) => result.exitCode).sort()).toEqual([0, 2]);
    expect(results.find((result) => result.exitCode === 2)?.stderr).toContain(`run ${run} was undone already`);
    const back = await rows.all('undone-at-once');
    expect(back.map((row) => row.ref).sort()).toEqual(['undone-at-once-1', 'undone-at-once-2']);
  });
});

describe('a receipt that cannot be read', () => {
  it('is listed as damaged, and refuses an undo of its run', async () => {
    const run = await deletedRun(await seed('damaged-undo', 2), 'damaged-undo');
    const path = receiptOf(run);
    const lines = (await readFile(path, 'utf8')).split('\n');
    const record = lines.findIndex((line) => line.startsWith('{"type":"record"'));
    lines[record] = `${(lines[record] ?? '').slice(0, 30)}#edited`;
    await writeFile(path, lines.join('\n'));

    const undo = await pla(['runs', 'undo', run, '--yes']);
    expect(undo.exitCode).toBe(2);
    expect(undo.stderr).toContain(`the receipt ${path} is damaged (line ${record + 1} is not a receipt line)`);
    expect(undo.stderr).toContain('it is not undone');
    expect(await rows.all('damaged-undo')).toEqual([]);

    // The end line damaged too: `runs list` says so.
    const last = lines.findLastIndex((line) => line !== '');
    lines[last] = '{"type":"end",';
    await writeFile(path, lines.join('\n'));
    const listed = JSON.parse((await pla(['runs', 'list', '-o', 'json'])).stdout) as Row[];
    expect(listed.find((row) => row.run === run)).toMatchObject({ exitCode: 'damaged', counts: 'its last line is not a receipt line' });
    await rename(path, files.temp().path(`${run}.moved-aside`));
  });

  it('whose first line is damaged is listed, not passed over, and its plan is not applied again (--force neither)', async () => {
    const input = await rows.file('damaged-plan.ndjson', ['{"ref": "damaged-plan-1"}', '{"ref": "damaged-plan-2"}'].join('\n'));
    const plan = files.temp().path('damaged-plan.plan.json');
    expect((await pla(['determinations', 'create', '--file', input, '--plan-out', plan])).exitCode).toBe(0);
    expect((await pla(['apply', plan, '--yes'])).exitCode).toBe(0);
    const run = await lastRun();
    const path = receiptOf(run);
    const text = await readFile(path, 'utf8');
    // The header cut short by hand, the lines after it kept.
    await writeFile(path, `${text.slice(0, 40)}${text.slice(text.indexOf('\n'))}`);

    const listed = await pla(['runs', 'list', '-o', 'json']);
    expect(JSON.parse(listed.stdout) as Row[]).toContainEqual(
      expect.objectContaining({ run, exitCode: 'damaged', counts: 'its first line is not the header pla writes' }),
    );
    expect(listed.stderr).toContain(`damaged receipt ${path}`);

    for (const force of [[], ['--force']]) {
      const again = await pla(['apply', plan, '--yes', ...force]);
      expect(again.exitCode).toBe(2);
      expect(again.stderr).toContain(`the receipt ${path} is damaged (its first line is not the header pla writes)`);
      expect(again.stderr).toContain('the plan is not applied again');
    }
    expect((await rows.all('damaged-plan')).map((row) => row.ref)).toEqual(['damaged-plan-1', 'damaged-plan-2']);
    // An undo of any run is refused too while it cannot be read: it could be that run's undo.
    expect((await pla(['runs', 'undo', 'last', '--yes'])).stderr).toContain('pla cannot tell which run it was');
    await rename(path, files.temp().path(`${run}.moved-aside`));
    expect((JSON.parse((await pla(['runs', 'list', '-o', 'json'])).stdout) as Row[]).map((row) => row.run)).not.toContain(run);
  });
});
