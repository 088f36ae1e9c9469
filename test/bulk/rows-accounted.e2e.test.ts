/**
 * Issue 17, through the built CLI against the real local server: every case the
 * issue lists, asserting what the store holds and which files were written, not
 * only what was printed. Each test works on records of its own (a `ref` prefix).
 */
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { rowFiles, serverWithFolder } from './helpers.js';

type Row = Record<string, unknown>;

const files = serverWithFolder();

function pla(args: string[]) {
  return files.server().pla(args);
}

/** Runs the built CLI in the temporary folder, so default rejects files land there. */
const inTemp = files.pla;

const { all, file, ndjsonRows, rejectsNamed } = rowFiles(files);

describe('unreadable rows', () => {
  it('go once each to a default rejects file named in the summary, with their lines (CRLF), and make the exit 9', async () => {
    const csv = await file('bad.csv', 'ref,name\r\nbad-1,one\r\nbad-5,fi"ve\r\nbad-4\r\nbad-2,"never closed\r\nbad-3,three\r\n');
    const run = await inTemp(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect(String(run.stderr).match(/skipped line 5/g)).toHaveLength(1);
    // The stray quote is text; the row after the unclosed quote is read.
    expect((await all('bad-')).map((row) => [row.ref, row.name]).sort()).toEqual([
      ['bad-1', 'one'],
      ['bad-3', 'three'],
      ['bad-5', 'fi"ve'],
    ]);
    const rejects = rejectsNamed(String(run.stderr));
    expect(rejects).toMatch(/rejects-\d{8}-\d{6}-\d{3}-[0-9a-f]{4}\.csv$/);
    expect((await readdir(files.temp().dir)).filter((name) => name.startsWith('rejects-'))).toHaveLength(1);
    const rows = (await readFile(rejects, 'utf8')).trim().split(/\r?\n/);
    // In the input's form: its header, then the line, the reason and the row's text as read.
    expect(rows[0]).toBe('ref,name,_line,_error,_raw');
    expect(rows).toHaveLength(3);
    expect(rows.slice(1).sort()).toEqual([
      expect.stringMatching(/^,,4,"expected 2 cells.*",bad-4$/),
      expect.stringContaining(',5,a quote opened on this line is never closed'),
    ]);
    expect(run.stderr).toContain('upserted 3 (created 3, updated 0), failed 0, skipped 2');
  });

  it('are listed by --plan with their lines before anything is sent, and a CRLF file’s entries keep their own lines', async () => {
    const csv = await file('plan-crlf.csv', 'ref,amount\r\nplanl-1,1\r\nplanl-2,"oops\r\nplanl-3,3\r\n');
    const plan = await inTemp(['determinations', 'upsert', '--file', csv, '--plan', '-o', 'json']);
    // A plan with an unreadable row exits 9 after showing it: `plan && apply` stops there.
    expect(plan.exitCode, String(plan.stderr)).toBe(9);
    const entries = (JSON.parse(String(plan.stdout)) as { entries: Row[] }).entries;
    expect(entries.map((entry) => [entry.action, entry.line])).toEqual([
      ['create', 2],
      ['unreadable', 3],
      ['create', 4],
    ]);
    expect(await all('planl-')).toEqual([]);
  });
});

describe('csv as spreadsheets write it', () => {
  it('reads a semicolon file as fields, and refuses it with --delimiter , (nothing sent)', async () => {
    const csv = await file('semi.csv', 'ref;code;name\nsemi-1;0042;Acme\n');
    const refused = await inTemp(['determinations', 'create', '--file', csv, '--delimiter', ',']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('one column when cut at commas');
    expect(await all('semi-')).toEqual([]);
    const created = await inTemp(['determinations', 'create', '--file', csv]);
    expect(created.exitCode, String(created.stderr)).toBe(0);
    expect(await all('semi-')).toEqual([expect.objectContaining({ ref: 'semi-1', code: '0042', name: 'Acme' })]);
  });

  it('keeps a stored string a string: the plan of `1000` against "1000" is unchanged, and a type change is a warning', async () => {
    const seed = await pla([
      'determinations',
      'create',
      '--data',
      JSON.stringify([
        { ref: 'type-1', companyCode: '1000', amount: 5 },
        { ref: 'type-2', companyCode: '2000', amount: 6 },
      ]),
      '-o',
      'ndjson',
    ]);
    expect(seed.exitCode, String(seed.stderr)).toBe(0);
    const [a, b] = (await all('type-')).sort((x, y) => Number(x.id) - Number(y.id));
    const csv = await file('types.csv', `id,ref,companyCode,amount\n${String(a?.id)},type-1,1000,5\n${String(b?.id)},type-2,2000,7\n`);
    const plan = await inTemp(['determinations', 'upsert', '--file', csv, '--plan', '-o', 'json']);
    expect(plan.exitCode, String(plan.stderr)).toBe(0);
    const entries = (JSON.parse(String(plan.stdout)) as { entries: Row[] }).entries;
    expect(entries.map((entry) => entry.action)).toEqual(['unchanged', 'update']);
    expect(entries[1]).toMatchObject({ record: { companyCode: '2000', amount: 7 }, changes: [{ field: 'amount', old: 6, new: 7 }] });

    const asNumber = await file('types.ndjson', `${JSON.stringify({ id: a?.id, companyCode: 1000 })}\n`);
    const warned = await inTemp(['determinations', 'upsert', '--file', asNumber, '--plan', '-o', 'table']);
    expect(warned.stdout).toContain('warning: type change, companyCode: stored as string "1000", sent as number 1000');
    expect(warned.stdout).toContain('Warning: 1 field value changes type');

    // A routine upsert (no plan) reads the records its csv rows name: "1000" stays a string there too.
    const routine = await file('types-routine.csv', `id,companyCode,amount\n${String(b?.id)},2000,6\n`);
    const run = await inTemp(['determinations', 'upsert', '--file', routine]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect((await all('type-')).find((row) => row.id === b?.id)).toMatchObject({ companyCode: '2000', amount: 6 });
    const routineMany = await file('types-routine-many.csv', `id,companyCode,amount\n${String(a?.id)},1000,5\n${String(b?.id)},2000,6\n`);
    expect((await inTemp(['determinations', 'upsert', '--file', routineMany])).exitCode).toBe(0);
    expect((await all('type-')).map((row) => row.companyCode).sort()).toEqual(['1000', '2000']);

    // Applied, the stored strings stay strings.
    const planFile = files.temp().path('types-plan.json');
    expect((await inTemp(['determinations', 'upsert', '--file', csv, '--plan-out', planFile, '-o', 'json'])).exitCode).toBe(0);
    expect((await inTemp(['apply', planFile, '--yes'])).exitCode).toBe(0);
    expect((await all('type-')).map((row) => [row.companyCode, row.amount]).sort()).toEqual([
      ['1000', 5],
      ['2000', 7],
    ]);
  });

  it('--raw and the id rule are the same in plan, run and apply: digits are ids, abc and 12.5 are refused everywhere', async () => {
    const seed = await pla([
      'determinations',
      'create',
      '--data',
      JSON.stringify([
        { ref: 'raw-1', amount: 1 },
        { ref: 'raw-2', amount: 2 },
      ]),
      '-q',
    ]);
    const [first, second] = String(seed.stdout).trim().split('\n');
    const csv = await file('raw.csv', `id,ref,amount\n${first},raw-1,10\n${second},raw-2,20\n,raw-new,30\nabc,raw-abc,40\n12.5,raw-dec,50\n`);
    const planFile = files.temp().path('raw-plan.json');
    const plan = await inTemp(['determinations', 'upsert', '--file', csv, '--raw', '--plan-out', planFile, '-o', 'json']);
    expect(plan.exitCode, String(plan.stderr)).toBe(9);
    expect((JSON.parse(String(plan.stdout)) as { counts: Row }).counts).toEqual({ update: 2, create: 1, refused: 2 });
    const applied = await inTemp(['apply', planFile, '--yes', '--rejects', files.temp().path('raw-apply-rejects.ndjson')]);
    expect(applied.exitCode, String(applied.stderr)).toBe(9);
    expect((await all('raw-')).map((row) => [row.ref, String(row.amount)]).sort()).toEqual([
      ['raw-1', '10'],
      ['raw-2', '20'],
      ['raw-new', '30'],
    ]);
    const planRejects = await ndjsonRows(files.temp().path('raw-apply-rejects.ndjson'));
    const run = await inTemp(['determinations', 'upsert', '--file', csv, '--raw', '--rejects', files.temp().path('raw-run-rejects.ndjson')]);
    expect(run.exitCode).toBe(9);
    const runRejects = await ndjsonRows(files.temp().path('raw-run-rejects.ndjson'));
    // The same two rows, for the same reason, by plan and apply as by the run.
    expect(runRejects.map((row) => [row._line, row._error])).toEqual(planRejects.map((row) => [row._line, row._error]));
    expect(runRejects.map((row) => row._line)).toEqual([5, 6]);
  });
});

describe('duplicates are decided', () => {
  it('an ids file names an id twice: it is decommissioned once, and the repeat is said', async () => {
    const seed = await pla(['determinations', 'create', '--data', JSON.stringify([1, 2, 3].map((i) => ({ ref: `dupid-${i}` }))), '-q']);
    const ids = String(seed.stdout).trim().split('\n');
    const idsFile = await file('dup-ids.txt', `${ids[0]}\n${ids[1]}\n${ids[1]}\n${ids[2]}\n`);
    const run = await inTemp(['determinations', 'decommission', '--ids-file', idsFile, '--yes', '-o', 'json']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(run.stderr).toContain(`id ${ids[1]} named again (line 3 of ${idsFile}; first line 2 of ${idsFile}): sent once`);
    expect(run.stderr).toContain('decommissioned 3,');
    expect((JSON.parse(String(run.stdout)) as Row[]).map((row) => String(row.id))).toEqual(ids);
    expect((await all('dupid-')).every((row) => row.status === 'DECOMMISSIONED')).toBe(true);
  });

  it('records naming one id with other values are all refused as ambiguous; identical ones are sent once', async () => {
    const seed = await pla([
      'determinations',
      'create',
      '--data',
      JSON.stringify([
        { ref: 'duprec-1', amount: 1 },
        { ref: 'duprec-2', amount: 2 },
      ]),
      '-q',
    ]);
    const [a, b] = String(seed.stdout).trim().split('\n');
    const sheet = await file(
      'dup-records.ndjson',
      [
        { id: Number(a), ref: 'duprec-1', amount: 10 },
        { id: Number(b), ref: 'duprec-2', amount: 20 },
        { id: Number(a), ref: 'duprec-1', amount: 11 },
        { id: Number(b), ref: 'duprec-2', amount: 20 },
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    );
    const rejects = files.temp().path('dup-rejects.ndjson');
    const run = await inTemp(['determinations', 'upsert', '--file', sheet, '--rejects', rejects]);
    expect(run.exitCode).toBe(9);
    expect(run.stderr).toContain('line 4 repeats line 2');
    expect((await all('duprec-')).map((row) => [row.ref, row.amount]).sort()).toEqual([
      ['duprec-1', 1],
      ['duprec-2', 20],
    ]);
    expect((await ndjsonRows(rejects)).map((row) => [row._line, row.amount, String(row._error).includes('ambiguous')])).toEqual([
      [1, 10, true],
      [3, 11, true],
    ]);
  });
});

describe('a plan is applied once', () => {
  it('a second apply is refused (no create twice); two at once: one applies, the other is refused; --force sends only what is left', async () => {
    const sheet = await file('once.ndjson', [1, 2, 3].map((i) => JSON.stringify({ ref: `once-${i}`, amount: i })).join('\n'));
    const planFile = files.temp().path('once-plan.json');
    expect((await inTemp(['determinations', 'upsert', '--file', sheet, '--plan-out', planFile, '-o', 'json'])).exitCode).toBe(0);
    const [one, two] = await Promise.all([inTemp(['apply', planFile, '--yes']), inTemp(['apply', planFile, '--yes'])]);
    expect([one.exitCode, two.exitCode].sort()).toEqual([0, 2]);
    expect(String(one.stderr) + String(two.stderr)).toContain('this plan was applied already');
    expect(await all('once-')).toHaveLength(3);

    const again = await inTemp(['apply', planFile, '--yes']);
    expect(again.exitCode).toBe(2);
    expect(await all('once-')).toHaveLength(3);
    const forced = await inTemp(['apply', planFile, '--yes', '--force']);
    expect(forced.exitCode, String(forced.stderr)).toBe(0);
    expect(forced.stderr).toContain('3 entries done are skipped');
    expect(await all('once-')).toHaveLength(3);
  });

  it('two different plans for one record applied at once: the second finds the first one’s change a conflict, not overwritten', async () => {
    const seed = await pla(['determinations', 'create', '--data', JSON.stringify({ ref: 'race-1', amount: 1 }), '-q']);
    const id = Number(String(seed.stdout).trim());
    const plans = await Promise.all(
      [100, 200].map(async (amount) => {
        const path = files.temp().path(`race-${amount}.json`);
        const made = await inTemp(['determinations', 'upsert', '--data', JSON.stringify({ id, amount }), '--plan-out', path, '-o', 'json']);
        expect(made.exitCode, String(made.stderr)).toBe(0);
        return path;
      }),
    );
    const results = await Promise.all(plans.map((path) => inTemp(['apply', path, '--yes'])));
    expect(results.map((r) => r.exitCode).sort()).toEqual([0, 9]);
    expect(results.map((r) => String(r.stderr)).join('\n')).toContain('changed since the plan was made');
    const winner = results.findIndex((r) => r.exitCode === 0);
    expect((await all('race-'))[0]?.amount).toBe(winner === 0 ? 100 : 200);
  });
});

describe('rows as spreadsheets end them', () => {
  it('empty rows (`;;`, Excel’s trailing ones) are blank lines: nothing sent for them, later rows keep their file lines', async () => {
    const before = (await files.determinations()).length;
    const csv = await file('empty-rows.csv', 'ref;name\nempty-1;one\n;\n;\nempty-3\nempty-2;two\n;\n;\n');
    const run = await inTemp(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect((await all('empty-')).map((row) => [row.ref, row.name]).sort()).toEqual([
      ['empty-1', 'one'],
      ['empty-2', 'two'],
    ]);
    // No empty record was created for the empty rows.
    expect((await files.determinations()).length).toBe(before + 2);
    const rows = (await readFile(rejectsNamed(String(run.stderr)), 'utf8')).trim().split(/\r?\n/);
    // A `;` file's rejects are cut by `;` too.
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^;;5;expected 2 cells.*;empty-3$/)]);
    expect(run.stderr).toContain('upserted 2 (created 2, updated 0), failed 0, skipped 1');
  });

  it('a file of only empty rows sends nothing and says so', async () => {
    const before = (await files.determinations()).length;
    const csv = await file('only-empty.csv', 'ref,name,amount\n,,\n,,\n');
    const run = await inTemp(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('the input holds no records');
    expect((await files.determinations()).length).toBe(before);
  });

  it('CRLF, LF and CR row ends mixed in one file: no CR left in a value, and lines counted as the file has them', async () => {
    const csv = await file('mixed-ends.csv', 'ref,name\nmix-1,One\r\nmix-2,"Two\r\nlines"\r\nmix-3,Three\rmix-4\nmix-5,Five\r\n');
    const run = await inTemp(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect((await all('mix-')).map((row) => [row.ref, row.name]).sort()).toEqual([
      ['mix-1', 'One'],
      ['mix-2', 'Two\r\nlines'],
      ['mix-3', 'Three'],
      ['mix-5', 'Five'],
    ]);
    const rows = (await readFile(rejectsNamed(String(run.stderr)), 'utf8')).trim().split(/\r?\n/);
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^,,6,"expected 2 cells.*",mix-4$/)]);
  });
});

describe('a stray quote', () => {
  it('that "closes" at a line end what a quote lines earlier opened costs only the opening line; the rows between are read', async () => {
    const csv = await file('stray-close.csv', 'ref,code,name\r\nstray-3,TRF,"Trf open\r\nstray-4,REV,Rev2\r\nstray-5,IMP,five"\r\n');
    const run = await inTemp(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect((await all('stray-')).map((row) => [row.ref, row.name]).sort()).toEqual([
      ['stray-4', 'Rev2'],
      ['stray-5', 'five"'],
    ]);
    const rows = (await readFile(rejectsNamed(String(run.stderr)), 'utf8')).trim().split(/\r?\n/);
    expect(rows.slice(1)).toEqual([expect.stringContaining(',2,a quote opened on this line is never closed')]);
  });

  it('a quoted cell over lines that do not read as rows stays one cell', async () => {
    const csv = await file('multiline-cell.csv', 'ref,code,name\r\nmulti-1,A,"first line\r\nsecond, line"\r\n');
    const run = await inTemp(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect((await all('multi-')).map((row) => row.name)).toEqual(['first line\r\nsecond, line']);
  });
});

describe('a file holding one record', () => {
  it('goes the way many would: refused, it is a reject with its file line and the exit is 9', async () => {
    const csv = await file('one-refused.csv', 'ref,name,inUse\n\n\none-1,Z,maybe\n');
    const run = await inTemp(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect(await all('one-')).toEqual([]);
    const rows = await readFile(rejectsNamed(String(run.stderr)), 'utf8');
    expect(rows.trim().split(/\r?\n/).slice(1)).toEqual([expect.stringMatching(/^one-1,Z,maybe,4,/)]);

    const good = await file('one-good.csv', 'ref,name\n\none-2,Two\n');
    const sent = await inTemp(['determinations', 'upsert', '--file', good]);
    expect(sent.exitCode, String(sent.stderr)).toBe(0);
    expect((await all('one-')).map((row) => [row.ref, row.name])).toEqual([['one-2', 'Two']]);
  });

  it('is planned with its file line', async () => {
    const csv = await file('one-plan.csv', 'ref,name\n\n\noneplan-1,Z\n');
    const plan = await inTemp(['determinations', 'upsert', '--file', csv, '--plan', '-o', 'json']);
    expect(plan.exitCode, String(plan.stderr)).toBe(0);
    const entries = (JSON.parse(String(plan.stdout)) as { entries: Row[] }).entries;
    expect(entries.map((entry) => [entry.action, entry.line])).toEqual([['create', 4]]);
    expect(await all('oneplan-')).toEqual([]);
  });
});
