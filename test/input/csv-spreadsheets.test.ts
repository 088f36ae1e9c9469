/**
 * Issue 17 items 2 and 3: csv as spreadsheets write it. Line numbers are the
 * file's whatever ends its lines (CRLF, CR, LF), with quoted cells spanning lines
 * and a byte order mark; `,` `;` and tab are told apart from the header; a stray
 * quote is text; an unclosed quote costs its own line only.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { inputFolder } from './helpers.js';

const read = inputFolder((row) => row.raw).records;

describe('line numbers are the file’s', () => {
  const rows = ['code,name', 'A1,one', '"B2","two', 'lines"', '', 'C3,three'];
  const expected = [
    [2, { code: 'A1', name: 'one' }],
    [3, { code: 'B2', name: 'two\nlines' }],
    [6, { code: 'C3', name: 'three' }],
  ];
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('%s line endings, a quoted cell over two lines, a blank line, a byte order mark', async (_name, eol) => {
    const { items } = await read(`lines-${_name}.csv`, `\uFEFF${rows.join(eol)}${eol}`);
    expect(items.map(([line]) => line)).toEqual(expected.map(([line]) => line));
    expect(items[0]?.[1]).toEqual(expected[0]?.[1]);
    expect(String(items[1]?.[1].name).split(/\r\n|\r|\n/)).toEqual(['two', 'lines']);
  });

  it('bad rows carry their own line, in CRLF files too', async () => {
    const { items, bad } = await read('bad-crlf.csv', 'code,name\r\nA1,one\r\nB2\r\nC3,three,extra\r\nD4,four\r\n');
    expect(items.map(([line, value]) => [line, value.code])).toEqual([
      [2, 'A1'],
      [5, 'D4'],
    ]);
    expect(bad.map(([line]) => line)).toEqual([3, 4]);
  });
});

describe('spreadsheet csv', () => {
  it('detects semicolons and tabs from the header', async () => {
    expect((await read('semi.csv', 'id;code;name\n1;A;x\n')).items).toEqual([[2, { id: 1, code: 'A', name: 'x' }]]);
    expect((await read('tab.csv', 'code\tname\nA\tx, y\n')).items).toEqual([[2, { code: 'A', name: 'x, y' }]]);
  });

  it('refuses a header that looks cut at the wrong delimiter', async () => {
    const error = await read('wrong.csv', 'id;code;name\n1;A;x\n', { delimiter: ',' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/one column.*semicolon/);
    expect((error as UsageError).hint).toContain("--delimiter ';'");
  });

  it('reads a quote inside an unquoted cell as text', async () => {
    const { items, bad } = await read('stray.csv', 'code,name\nB"2,bad\nC3,fine\n');
    expect(items).toEqual([
      [2, { code: 'B"2', name: 'bad' }],
      [3, { code: 'C3', name: 'fine' }],
    ]);
    expect(bad).toEqual([]);
  });

  it('an unclosed quote is its own line’s bad row; the rows after it are read', async () => {
    const { items, bad } = await read('unclosed.csv', 'code,name\r\n"A1,ok\r\nB2,fine\r\nC3,z\r\n');
    expect(bad).toEqual([[2, '"A1,ok']]);
    expect(items).toEqual([
      [3, { code: 'B2', name: 'fine' }],
      [4, { code: 'C3', name: 'z' }],
    ]);
  });

  it('a quote "closed" lines later by a stray quote does not swallow the rows between', async () => {
    const { items, bad } = await read('stray-close.csv', 'code,name\nA1,"never closed\nB2,fine\nC3,fi"ve\nD4,four\n');
    expect(bad).toEqual([[2, 'A1,"never closed']]);
    expect(items).toEqual([
      [3, { code: 'B2', name: 'fine' }],
      [4, { code: 'C3', name: 'fi"ve' }],
      [5, { code: 'D4', name: 'four' }],
    ]);
    // A quoted cell that starts with a quote of its own and spans lines is no stray.
    const legit = await read('legit.csv', 'code,name\nD4,"""quoted""\nover two"\nE5,five\n');
    expect(legit.bad).toEqual([]);
    expect(legit.items).toEqual([
      [2, { code: 'D4', name: '"quoted"\nover two' }],
      [4, { code: 'E5', name: 'five' }],
    ]);
  });
});
