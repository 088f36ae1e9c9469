/**
 * CSV safe for spreadsheets, exact for pla: cells a spreadsheet would run as a
 * formula (=, +, -, @, tab, CR first) are written with a leading `'` in `-o csv`
 * and in the rejects file, and pla's csv reader removes it, so export → edit →
 * upsert keeps every value exactly. `--csv-raw` writes and reads cells as they are.
 * The built CLI against the real local server.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../bulk/helpers.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

/** Every first character a spreadsheet runs, texts that already start with `'`, and a number that must stay one. */
const FORMULAS: Record<string, unknown> = {
  eq: '=1+2',
  plus: '+SUM(A1:A9)',
  minus: "-2+3+cmd|' /C calc'!A0",
  minusNumberText: '-5',
  at: '@HYPERLINK("http://evil.example","x")',
  tab: '\t=1+1',
  cr: '\r=1+1',
  guardedAlready: "'=not a formula",
  twoQuotes: "''+x",
  quoteOnly: "'plain",
  negative: -7.5,
  '=field': 'a field whose name is a formula',
};
const FORMULA_START = /^[=+\-@\t\r]/;

let server: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  server = await startLocalServer({ seed: false });
  temp = await tempDir();
  const seed = temp.path('seed.ndjson');
  await writeFile(
    seed,
    [
      { code: 'F-1', ...FORMULAS },
      { code: 'F-2', note: 'plain' },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  const created = await server.pla(['determinations', 'upsert', '--file', seed]);
  expect(created.exitCode, String(created.stderr)).toBe(0);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await temp?.cleanup();
});

async function stored(): Promise<Array<Record<string, unknown>>> {
  const result = await server.pla(['determinations', 'list', '--all', '-o', 'ndjson']);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return String(result.stdout)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('csv and formulas', () => {
  it('-o csv starts no cell with a formula character; numbers stay numbers', async () => {
    const result = await server.pla(['determinations', 'list', '-o', 'csv']);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const rows = parse(String(result.stdout)) as string[][];
    for (const row of rows) for (const cell of row) if (cell !== '-7.5') expect(cell).not.toMatch(FORMULA_START);
    const [header = [], first = []] = rows;
    const cell = (name: string) => first[header.indexOf(name)];
    expect(header).toContain("'=field");
    expect(cell('eq')).toBe("'=1+2");
    expect(cell('tab')).toBe("'\t=1+1");
    expect(cell('guardedAlready')).toBe("''=not a formula");
    expect(cell('quoteOnly')).toBe("'plain");
    expect(cell('negative')).toBe('-7.5');
  });

  it('export → edit → upsert keeps every value exactly', async () => {
    const exported = await server.pla(['determinations', 'list', '--all', '-o', 'csv']);
    expect(exported.exitCode, String(exported.stderr)).toBe(0);
    const file = temp.path('edited.csv');
    // The edit a person makes: a value of the other record changed in the text.
    await writeFile(file, String(exported.stdout).replace(',plain', ',edited'));
    const upserted = await server.pla(['determinations', 'upsert', '--file', file]);
    expect(upserted.exitCode, String(upserted.stderr)).toBe(0);
    const after = await stored();
    const formulas = after.find((r) => r.code === 'F-1') ?? {};
    for (const [key, value] of Object.entries(FORMULAS)) expect(formulas[key], key).toStrictEqual(value);
    expect(after.find((r) => r.code === 'F-2')?.note).toBe('edited');
  });

  it('--csv-raw writes cells as they are, and reads them so', async () => {
    const result = await server.pla(['determinations', 'list', '-o', 'csv', '--csv-raw']);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const [header = [], first = []] = parse(String(result.stdout)) as string[][];
    expect(header).toContain('=field');
    expect(first[header.indexOf('eq')]).toBe('=1+2');
    // Read raw, a leading ' is kept: the text "'x" as typed.
    const file = temp.path('raw.csv');
    await writeFile(file, "code,note\nF-3,'=kept\n");
    expect((await server.pla(['determinations', 'upsert', '--file', file, '--csv-raw'])).exitCode).toBe(0);
    expect((await stored()).find((r) => r.code === 'F-3')?.note).toBe("'=kept");
  });

  it('the rejects file guards formulas too, and feeds back exactly', async () => {
    const input = temp.path('refused.ndjson');
    // An unknown status: the local server refuses the record.
    await writeFile(input, `${JSON.stringify({ code: 'F-4', status: 'BOGUS', note: '=1+2', other: '@x' })}\n`);
    const rejects = temp.path('rejects.csv');
    const run = await server.pla(['determinations', 'upsert', '--file', input, '--rejects', rejects]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    const text = await readFile(rejects, 'utf8');
    const rows = parse(text) as string[][];
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(FORMULA_START);
    // Fixed in place (the status) and fed back: the formula-like values arrive as they were.
    await writeFile(rejects, text.replace('BOGUS', 'ACTIVE'));
    const again = await server.pla(['determinations', 'upsert', '--file', rejects]);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    const record = (await stored()).find((r) => r.code === 'F-4');
    expect(record).toMatchObject({ status: 'ACTIVE', note: '=1+2', other: '@x' });
  });
});
