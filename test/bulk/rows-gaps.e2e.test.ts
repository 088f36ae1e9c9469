/**
 * Issue 17's remaining gaps, through the built CLI against the real local server:
 * bad ids in ids files (a file and stdin), stray quotes, Excel's TRUE, CR CR LF,
 * `ID ` headers and exponent ids, rejects cut by the input's separator, ids files
 * that are not plain digits, and apply's account of repeated rows. Each test
 * asserts what the store holds and the files written, not only messages.
 */
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { rowFiles, serverWithFolder } from './helpers.js';

type Row = Record<string, unknown>;

const files = serverWithFolder();
/** The built CLI, run in the temporary folder (where default rejects files land). */
const pla = files.pla;

const { all, file, ndjsonRows, rejectsNamed } = rowFiles(files);

/** Creates records `{ ref }` and gives their ids, in order. */
async function seed(refs: string[], extra: Row = {}): Promise<number[]> {
  const made = await files.pla(['determinations', 'create', '--data', JSON.stringify(refs.map((ref) => ({ ref, ...extra }))), '-q']);
  expect(made.exitCode, String(made.stderr)).toBe(0);
  return String(made.stdout).trim().split('\n').map(Number);
}

const BAD_IDS = ['abc', '12.5', '', '-3', '1E+15'];

describe('bad ids in an ids file', () => {
  it('are refused rows with their lines: the good ids are decommissioned, the bad in the rejects file, exit 9; plan, dry run and apply list them first', async () => {
    const [a, b, c] = await seed(['badid-1', 'badid-2', 'badid-3']);
    const idsFile = await file('bad-ids.txt', [String(a), ...BAD_IDS, String(b), ''].join('\n'));
    const expectedLines = [2, 3, 4, 5, 6];

    const plan = await pla(['determinations', 'decommission', '--ids-file', idsFile, '--plan', '-o', 'json']);
    expect(plan.exitCode, String(plan.stderr)).toBe(9);
    const entries = (JSON.parse(String(plan.stdout)) as { entries: Row[] }).entries;
    expect(entries.map((entry) => [entry.action, entry.line])).toEqual([
      ['decommission', 1],
      ...expectedLines.map((line) => ['refused', line]),
      ['decommission', 7],
    ]);
    expect(entries[5]?.reason).toContain('exponent notation');

    const dry = await pla(['determinations', 'decommission', '--ids-file', idsFile, '--dry-run', '-o', 'json']);
    expect(dry.exitCode, String(dry.stderr)).toBe(9);
    const notes = (JSON.parse(String(dry.stdout)) as Row[]).filter((row) => row.note !== undefined).map((row) => String(row.note));
    expect(notes.map((note) => Number(/^line (\d+)/.exec(note)?.[1]))).toEqual(expectedLines);
    expect(dry.stderr).toContain(
      'would decommission 2 determinations on local (PUT /api/v1/asset-transaction-type-determinations/decommission/bulk), 5 would be refused',
    );
    expect((await all('badid-')).every((row) => row.status === 'ACTIVE')).toBe(true);

    const planFile = files.temp().path('bad-ids-plan.json');
    expect((await pla(['determinations', 'decommission', '--ids-file', idsFile, '--plan-out', planFile, '-o', 'json'])).exitCode).toBe(9);
    const applyRejects = files.temp().path('bad-ids-apply.ndjson');
    const applied = await pla(['apply', planFile, '--yes', '--rejects', applyRejects]);
    expect(applied.exitCode, String(applied.stderr)).toBe(9);
    expect(applied.stderr).toContain('--ids-file');
    expect((await ndjsonRows(applyRejects)).map((row) => [row._line, row.id])).toEqual(expectedLines.map((line, i) => [line, BAD_IDS[i]]));
    const after = await all('badid-');
    expect(after.map((row) => [row.id, row.status])).toEqual([
      [a, 'DECOMMISSIONED'],
      [b, 'DECOMMISSIONED'],
      [c, 'ACTIVE'],
    ]);
  });

  it('from a run, and from stdin: the good ids sent, the bad ones rows of the default rejects file with line and reason, exit 9', async () => {
    for (const stdin of [false, true]) {
      const refs = [`badrun-${String(stdin)}-1`, `badrun-${String(stdin)}-2`, `badrun-${String(stdin)}-3`];
      const [a, b, c] = await seed(refs);
      const text = [String(a), 'abc', '', '1E+15', String(b)].join('\n');
      const run = stdin
        ? await files.server().pla(['determinations', 'decommission', '--ids-file', '-', '--yes'], { input: text, cwd: files.temp().dir })
        : await pla(['determinations', 'decommission', '--ids-file', await file('run-ids.txt', text), '--yes']);
      expect(run.exitCode, String(run.stderr)).toBe(9);
      expect(run.stderr).toContain('decommissioned 2, failed 3');
      const rejects = await ndjsonRows(rejectsNamed(String(run.stderr)));
      expect(rejects.map((row) => [row._line, row.id])).toEqual([
        [2, 'abc'],
        [3, ''],
        [4, '1E+15'],
      ]);
      expect(rejects.every((row) => typeof row._error === 'string' && row._error !== '')).toBe(true);
      expect((await all(`badrun-${String(stdin)}-`)).map((row) => [row.id, row.status])).toEqual([
        [a, 'DECOMMISSIONED'],
        [b, 'DECOMMISSIONED'],
        [c, 'ACTIVE'],
      ]);
    }
  });

  it('an ids file whose first line is no id: headed `ID`, it is ids; headed otherwise, refused saying what was seen, nothing sent', async () => {
    const [a, b] = await seed(['sniff-1', 'sniff-2']);
    const headed = await pla(['determinations', 'decommission', '--ids-file', await file('headed.txt', `ID\n${String(a)}\n`), '--yes']);
    expect(headed.exitCode, String(headed.stderr)).toBe(0);
    const other = await pla(['determinations', 'decommission', '--ids-file', await file('other.txt', `ref\n${String(b)}\n`), '--yes']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('starts with "ref": neither an id nor an \'id\' header');
    const columns = await pla(['determinations', 'decommission', '--ids-file', await file('columns.txt', `ref,name\n${String(b)},x\n`), '--yes']);
    expect(columns.exitCode).toBe(2);
    expect(columns.stderr).toContain("reads as csv with the columns ref, name: none of them is 'id'");
    expect((await all('sniff-')).map((row) => row.status)).toEqual(['DECOMMISSIONED', 'ACTIVE']);
  });
});

describe('csv rows', () => {
  it('a stray quote closing what a quote lines before opened: the opening line is a reject, the lines after are read as rows', async () => {
    const csv = await file('stray-more.csv', 'ref,name\nsq-1,"open\nsq-2,stray",x\nsq-3,ok\n');
    const run = await pla(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect((await all('sq-')).map((row) => [row.ref, row.name])).toEqual([['sq-3', 'ok']]);
    const rows = (await readFile(rejectsNamed(String(run.stderr)), 'utf8')).trim().split('\n');
    expect(rows.slice(1)).toEqual([
      expect.stringMatching(/^,,2,a quote opened on this line is never closed,"sq-1,""open"$/),
      expect.stringMatching(/,3,"expected 2 cells/),
    ]);
  });

  it('CR CR LF ends one line: rows keep their lines, no phantom unreadable line, no CR in a value', async () => {
    const csv = await file('crcrlf.csv', 'ref,name\r\r\ncr-1,one\r\r\ncr-2,two\r\r\n');
    const plan = await pla(['determinations', 'upsert', '--file', csv, '--plan', '-o', 'json']);
    expect((JSON.parse(String(plan.stdout)) as { entries: Row[] }).entries.map((entry) => [entry.action, entry.line])).toEqual([
      ['create', 2],
      ['create', 3],
    ]);
    const run = await pla(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect((await all('cr-')).map((row) => [row.ref, row.name])).toEqual([
      ['cr-1', 'one'],
      ['cr-2', 'two'],
    ]);
  });

  it('a header ` ID ` is the id column; an id in exponent notation is refused with why', async () => {
    const [a] = await seed(['hdr-1'], { amount: 1 });
    const csv = await file('id-header.csv', ` ID ,ref,amount \n${String(a)},hdr-1,5\n1.23E+15,hdr-exp,6\n`);
    const run = await pla(['determinations', 'upsert', '--file', csv, '--rejects', files.temp().path('hdr-rejects.ndjson')]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect((await all('hdr-')).map((row) => [row.id, row.ref, row.amount])).toEqual([[a, 'hdr-1', 5]]);
    const rejects = await ndjsonRows(files.temp().path('hdr-rejects.ndjson'));
    expect(rejects.map((row) => [row._line, row.ref])).toEqual([[3, 'hdr-exp']]);
    expect(String(rejects[0]?._error)).toContain('exponent notation');
  });

  it('Excel’s TRUE and true for one id where a boolean is stored: one row repeated, the plan unchanged, exit 0', async () => {
    const [a] = await seed(['bool-1'], { inUse: true });
    const csv = await file('bools.csv', `id,ref,inUse\r\n${String(a)},bool-1,TRUE\r\n${String(a)},bool-1,true\r\n`);
    const plan = await pla(['determinations', 'upsert', '--file', csv, '--plan', '-o', 'json']);
    expect(plan.exitCode, String(plan.stderr)).toBe(0);
    expect((JSON.parse(String(plan.stdout)) as { counts: Row }).counts).toEqual({ unchanged: 1, repeat: 1 });
    const run = await pla(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(run.stderr).toContain('line 3 repeats line 2');
    expect((await all('bool-'))[0]).toMatchObject({ id: a, inUse: true });
  });

  it('the rejects of a `;` file are written with `;`, formula cells guarded', async () => {
    const csv = await file('semi-rejects.csv', 'ref;name;amount\nsemi-ok;a,b;1\n=HYPERLINK("x");y;2;extra\n');
    const run = await pla(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect((await all('semi-')).map((row) => [row.ref, row.name])).toEqual([['semi-ok', 'a,b']]);
    const text = await readFile(rejectsNamed(String(run.stderr)), 'utf8');
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('ref;name;amount;_line;_error;_raw');
    expect(lines[1]).toMatch(/^;;;3;expected 3 cells.*;"'=HYPERLINK\(""x""\);y;2;extra"$/);
    expect((await readdir(files.temp().dir)).some((name) => name.startsWith('unknown-outcome'))).toBe(false);
  });
});

describe('a verb sent one call each', () => {
  it('keeps its unreadable rows too: the rejects file with line and raw text, exit 9, the good records created', async () => {
    const note = (title: string) => JSON.stringify({ title, message: 'm', recipient: 'x@y.z' });
    const input = await file('notes.ndjson', `${note('one-by-one-1')}\nnot json\n${note('one-by-one-2')}\n`);
    const run = await pla(['notifications', 'create', '--file', input, '-o', 'json']);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    const created = JSON.parse(String(run.stdout)) as Row[];
    expect(created.map((row) => row.title).sort()).toEqual(['one-by-one-1', 'one-by-one-2']);
    const rejects = await ndjsonRows(rejectsNamed(String(run.stderr)));
    expect(rejects.map((row) => [row._line, row._raw])).toEqual([[2, 'not json']]);
  });
});

describe('apply', () => {
  it('accounts for repeated rows in its summary, as a run does', async () => {
    const [a] = await seed(['rep-1'], { amount: 1 });
    const sheet = await file('repeat.ndjson', [{ id: a, amount: 2 }, { id: a, amount: 2 }, { ref: 'rep-new' }].map((row) => JSON.stringify(row)).join('\n'));
    const planFile = files.temp().path('repeat-plan.json');
    expect((await pla(['determinations', 'upsert', '--file', sheet, '--plan-out', planFile, '-o', 'json'])).exitCode).toBe(0);
    const applied = await pla(['apply', planFile, '--yes']);
    expect(applied.exitCode, String(applied.stderr)).toBe(0);
    expect(applied.stderr).toContain('upserted 2 (created 1, updated 1)');
    expect(applied.stderr).toContain('not sent: 0 unchanged, 1 repeating an earlier row exactly (sent once, as it), 0 refused or unreadable');
    expect((await all('rep-')).map((row) => [row.ref, row.amount ?? null])).toEqual([
      ['rep-1', 2],
      ['rep-new', null],
    ]);
  });
});
