/**
 * A finance admin's sheets, right the first time (issue 27): a European Excel csv
 * (BOM, CRLF, `;`, WAHR/TRUE, numbers-as-text, an exponent id, a date Excel
 * reformatted, a stray quote) and an .xlsx workbook made here with exceljs, upserted
 * through `pla` against the real local server. Valid rows plan without refusal and
 * are stored with the types the service declares (read back from the server);
 * bad rows are refused by name, and their rejects hold each cell's text exactly,
 * in the input's form (read back with the same library); a second run with
 * `--match code` changes nothing.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { tempFolder } from './helpers.js';

const DET = '/api/v1/asset-transaction-type-determinations';

let server: LocalServer;
let folder: Awaited<ReturnType<typeof tempFolder>>;
/** The record the sheets update by id. */
let updId: number;

type Stored = Record<string, unknown> & { id: number; code?: string; updatedAt: string };

async function stored(): Promise<Map<string, Stored>> {
  const page = (await server.http('GET', `${DET}?size=1000`)).body as { content: Stored[] };
  return new Map(page.content.map((record) => [String(record.code), record]));
}

beforeAll(async () => {
  [server, folder] = await Promise.all([startLocalServer(), tempFolder()]);
  // A record carrying a date field: the service's meta then declares it a date-time.
  const seeded = await server.pla([
    'det',
    'create',
    '--data',
    JSON.stringify({ code: 'EU-UPD', name: 'Before', validFrom: '2026-01-01T00:00:00Z' }),
    '-o',
    'json',
  ]);
  expect(seeded.exitCode, seeded.stderr).toBe(0);
  updId = (JSON.parse(seeded.stdout) as { id: number }).id;
});

afterAll(async () => {
  await Promise.all([server?.stop(), folder?.cleanup()]);
});

const HEADER = 'ID ;code;name;companyCode;inUse;validFrom;decommissionedAt';
const csv = (...rows: string[]) => `\uFEFF${[HEADER, ...rows].map((row) => `${row}\r\n`).join('')}`;

describe('a European Excel csv', () => {
  it('plans without refusal, applies with exit 0, stores the declared types, and changes nothing again with --match code', async () => {
    const file = await folder.file(
      'valid.csv',
      csv(
        ';EU-NEW-1;Neu eins;1000;WAHR;;',
        ';EU-NEW-2;Neu zwei;0042;FALSE;2026-05-01T00:00:00Z;',
        // An export re-saved by Excel: its decommissionedAt reformatted, and the service sets it anyway: not sent.
        `${updId};EU-UPD;Geändert;2000;TRUE;2026-01-01T00:00:00Z;18.11.2026 14:54`,
      ),
    );
    const planFile = join(folder.dir, 'valid-plan.json');
    const plan = await server.pla(['det', 'upsert', '--file', file, '--plan-out', planFile, '-o', 'json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const reviewed = JSON.parse(plan.stdout) as { counts: Record<string, number>; entries: Array<{ action: string; changes?: Array<{ field: string }> }> };
    expect(reviewed.counts).toEqual({ create: 2, update: 1 });
    expect(reviewed.entries.find((entry) => entry.action === 'update')?.changes?.map((change) => change.field)).toEqual(['name', 'companyCode', 'inUse']);
    expect(plan.stderr).toContain('not sent: decommissionedAt (the service sets it)');
    expect(plan.stderr).toContain('2 row(s) name no id: each run of this input creates them again');

    const apply = await server.pla(['apply', planFile]);
    expect(apply.exitCode, apply.stderr).toBe(0);
    const records = await stored();
    expect(records.get('EU-NEW-1')).toMatchObject({ companyCode: '1000', inUse: true });
    expect(records.get('EU-NEW-2')).toMatchObject({ companyCode: '0042', inUse: false, validFrom: '2026-05-01T00:00:00Z' });
    expect(records.get('EU-UPD')).toMatchObject({ id: updId, name: 'Geändert', companyCode: '2000', inUse: true });
    expect(records.get('EU-UPD')?.decommissionedAt).toBeUndefined();

    // Again, by the natural key: every row finds its record, nothing is sent, nothing changes.
    const again = await server.pla(['det', 'upsert', '--file', file, '--match', 'code', '--plan', '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { counts: Record<string, number> }).counts).toEqual({ unchanged: 3 });
    const run = await server.pla(['det', 'upsert', '--file', file, '--match', 'code']);
    expect(run.exitCode, run.stderr).toBe(0);
    const after = await stored();
    for (const code of ['EU-NEW-1', 'EU-NEW-2', 'EU-UPD']) expect(after.get(code)?.updatedAt).toBe(records.get(code)?.updatedAt);
    expect(after.size).toBe(records.size);
  });

  it('refuses bad rows by name, exits 9 on the plan, and `pla apply` writes their rejects exactly, in the csv form', async () => {
    const file = await folder.file(
      'bad.csv',
      csv(';EU-OK;Fine;1000;VRAI;;', '1.23E+15;EU-EXP;Exponent;3000;TRUE;;', ';EU-DATE;Bad date;1000;TRUE;18.11.2026 14:54;', ';EU-Q;"q"x;1000;TRUE;;'),
    );
    const planFile = join(folder.dir, 'bad-plan.json');
    const plan = await server.pla(['det', 'upsert', '--file', file, '--plan-out', planFile, '-o', 'json']);
    expect(plan.exitCode).toBe(9);
    const entries = (JSON.parse(plan.stdout) as { entries: Array<{ action: string; line: number; reason?: string }> }).entries;
    expect(entries.map((entry) => [entry.line, entry.action])).toEqual([
      [2, 'create'],
      [3, 'refused'],
      [4, 'refused'],
      [5, 'unreadable'],
    ]);
    expect(entries[2]?.reason).toMatch(/^validFrom: '18\.11\.2026 14:54' is not a date-time/);
    expect(entries[3]?.reason).toContain('closing quote');

    const cwd = join(folder.dir, 'apply-here');
    await import('node:fs/promises').then(({ mkdir }) => mkdir(cwd));
    const apply = await server.pla(['apply', planFile], { cwd });
    expect(apply.exitCode).toBe(9);
    expect((await stored()).get('EU-OK')).toMatchObject({ inUse: true, companyCode: '1000' });
    const [rejectsName] = (await readdir(cwd)).filter((name) => name.startsWith('rejects-'));
    expect(rejectsName).toMatch(/\.csv$/);
    const text = await readFile(join(cwd, rejectsName as string), 'utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(`\uFEFF${HEADER};_line;_error;_raw`);
    expect(lines[1]).toMatch(/^1\.23E\+15;EU-EXP;Exponent;3000;TRUE;;;3;'1\.23E\+15' is not an id/);
    expect(lines[2]).toMatch(/^;EU-DATE;Bad date;1000;TRUE;18\.11\.2026 14:54;;4;validFrom: /);
    expect(lines[3]).toMatch(/^;;;;;;;5;.*;";EU-Q;""q""x;1000;TRUE;;"$/);

    // Fed back as the hint says, the exponent id stays refused: nothing is created under a guessed id.
    const before = (await stored()).size;
    const fed = await server.pla(['det', 'upsert', '--file', join(cwd, rejectsName as string), '-o', 'json']);
    expect(fed.exitCode).toBe(9);
    expect(fed.stderr).toContain("'1.23E+15' is not an id");
    expect((await stored()).size).toBe(before);
  });
});

describe('an .xlsx workbook', () => {
  async function writeBook(path: string): Promise<void> {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Buchungen');
    sheet.addRow(['id', 'code', 'name', 'companyCode', 'inUse', 'validFrom']);
    sheet.addRow([null, 'XL-NEW-1', 'Book one', 1000, true, new Date('2026-03-01T00:00:00Z')]);
    sheet.addRow([null, 'XL-NEW-2', 'Book two', '2000', 'WAHR', null]);
    sheet.addRow([updId, 'EU-UPD', 'From the book', 3000, false, null]);
    sheet.addRow(['1.23E+15', 'XL-EXP', 'Exponent', 4000, true, null]);
    sheet.addRow([null, 'XL-DATE', 'Bad date', 5000, true, '18.11.2026 14:54']);
    book.addWorksheet('Notes').addRow(['not records']);
    await book.xlsx.writeFile(path);
  }

  it('creates and updates with the declared types, writes its rejects as a workbook, and a second run with --match code changes nothing', async () => {
    const file = join(folder.dir, 'book.xlsx');
    await writeBook(file);
    const rejects = join(folder.dir, 'book-rejects.xlsx');
    const run = await server.pla(['det', 'upsert', '--file', file, '--rejects', rejects, '-o', 'json']);
    expect(run.exitCode).toBe(9);
    const records = await stored();
    expect(records.get('XL-NEW-1')).toMatchObject({ companyCode: '1000', inUse: true, validFrom: '2026-03-01T00:00:00.000Z' });
    expect(records.get('XL-NEW-2')).toMatchObject({ companyCode: '2000', inUse: true });
    expect(records.get('EU-UPD')).toMatchObject({ id: updId, name: 'From the book', companyCode: '3000', inUse: false });

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(rejects);
    const sheet = book.worksheets[0];
    expect(sheet?.name).toBe('Buchungen');
    const rows: string[][] = [];
    sheet?.eachRow((row) => rows.push(Array.from({ length: 9 }, (_, i) => row.getCell(i + 1).text)));
    expect(rows[0]).toEqual(['id', 'code', 'name', 'companyCode', 'inUse', 'validFrom', '_line', '_error', '_raw']);
    expect(rows.slice(1).map((row) => row.slice(0, 7))).toEqual([
      ['1.23E+15', 'XL-EXP', 'Exponent', '4000', 'TRUE', '', '5'],
      ['', 'XL-DATE', 'Bad date', '5000', 'TRUE', '18.11.2026 14:54', '6'],
    ]);
    expect(rows[2]?.[7]).toMatch(/^validFrom: /);

    const again = await server.pla(['det', 'upsert', '--file', file, '--match', 'code', '--plan', '-o', 'json']);
    expect((JSON.parse(again.stdout) as { counts: Record<string, number> }).counts).toEqual({ unchanged: 3, refused: 2 });
    const second = await server.pla(['det', 'upsert', '--file', file, '--match', 'code', '--rejects', join(folder.dir, 'again.xlsx')]);
    expect(second.exitCode).toBe(9);
    const after = await stored();
    for (const code of ['XL-NEW-1', 'XL-NEW-2', 'EU-UPD']) expect(after.get(code)?.updatedAt).toBe(records.get(code)?.updatedAt);
    expect(after.size).toBe(records.size);
  });

  it('exports with -o xlsx --out: id columns are text cells, and the workbook reads back unchanged', async () => {
    const out = join(folder.dir, 'export.xlsx');
    const exported = await server.pla(['det', 'list', '--all', '-o', 'xlsx', '--out', out]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out);
    const sheet = book.worksheets[0];
    const header = (sheet?.getRow(1).values as unknown[]).slice(1);
    const idColumn = header.indexOf('id') + 1;
    expect(typeof sheet?.getRow(2).getCell(idColumn).value).toBe('string');
    const inUse = header.indexOf('inUse') + 1;
    expect(typeof sheet?.getRow(2).getCell(inUse).value).toBe('boolean');

    const before = await stored();
    const back = await server.pla(['det', 'upsert', '--file', out, '--plan', '-o', 'json']);
    expect(back.exitCode, back.stderr).toBe(0);
    expect((JSON.parse(back.stdout) as { counts: Record<string, number> }).counts).toEqual({ unchanged: before.size });
  });
});
