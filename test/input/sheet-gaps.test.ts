/**
 * Issue 17's gaps in reading what spreadsheets write: a stray quote closing what
 * a quote lines before opened, CR CR LF line ends, `ID ` headers, Excel's
 * exponent ids and `TRUE`, and ids files that are not plain digits.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { readIds, readRecords } from '../../src/io/input/index.js';
import { HeldRecords } from '../../src/io/input/spool.js';
import { collect, inputFolder, recordingBadRows } from './helpers.js';

const folder = inputFolder((row) => row.message);
const read = folder.records;

async function ids(name: string, text: string, options: Parameters<typeof readIds>[1] = {}) {
  const bad = recordingBadRows();
  const items = await collect(readIds({ idsFile: await folder.file(name, text) }, { ...bad, ...options }));
  return { ids: items.map((item) => [item.line, item.value]), bad: bad.badRows.map((row) => [row.line, row.message]) };
}

describe('a row over several lines', () => {
  it('that a strict parse does not read as one row of the header’s cells: its first line is the bad row, the lines after it are read again', async () => {
    const { items, bad } = await read('stray.csv', 'ref,name\ns-1,"a\ns-2,stray",x\ns-3,ok\n');
    expect(bad).toEqual([
      [2, 'a quote opened on this line is never closed'],
      [3, "expected 2 cells (the header's), got 3"],
    ]);
    expect(items).toEqual([[4, { ref: 's-3', name: 'ok' }]]);
  });

  it('a real quoted last cell over lines stays one cell; the limit: a stray quote closing at a cell’s end with the header’s count is one cell too', async () => {
    const real = await read('real.csv', 'ref,code,name\nm-1,A,"first line\nsecond, line"\nm-2,B,b\n');
    expect(real.bad).toEqual([]);
    expect(real.items.map(([line, value]) => [line, value.name])).toEqual([
      [2, 'first line\nsecond, line'],
      [4, 'b'],
    ]);
    const limit = await read('limit.csv', 'ref,name,amount\ns-1,"open\ns-2,x,stray",x\n');
    expect(limit.items).toEqual([[2, { ref: 's-1', name: 'open\ns-2,x,stray', amount: 'x' }]]);
  });
});

describe('spreadsheet writing', () => {
  it('CR CR LF ends one line: no phantom line, no CR in a value', async () => {
    const { items, bad } = await read('crcrlf.csv', 'ref,name\r\r\nr-1,a\r\r\nr-2,"b\r\r\nc"\r\r\nr-3,d\r\r\n');
    expect(bad).toEqual([]);
    expect(items.map(([line, value]) => [line, value.ref])).toEqual([
      [2, 'r-1'],
      [3, 'r-2'],
      [5, 'r-3'],
    ]);
    expect(items[0]?.[1].name).toBe('a');
  });

  it('a header `ID ` or `Id` is the id column; names lose their surrounding spaces', async () => {
    const { items } = await read('id-header.csv', ' ID ,ref , name\n7,a,b\n', { recordIds: true });
    expect(items).toEqual([[2, { id: 7, ref: 'a', name: 'b' }]]);
  });

  it('an id Excel wrote in exponent notation is refused with why, --raw or not', async () => {
    for (const raw of [false, true]) {
      const { items, bad } = await read(`exp-${String(raw)}.csv`, 'id,ref\n1.23E+15,a\n8,b\n', { recordIds: true, raw });
      expect(items.map(([line]) => line)).toEqual([3]);
      expect(bad).toEqual([[2, expect.stringContaining("'1.23E+15' is not an id: a spreadsheet wrote it in exponent notation")]]);
    }
  });

  it('TRUE and true for one id are one row repeated, not an ambiguous pair', async () => {
    const repeats: number[] = [];
    const { items, bad } = await read('bools.csv', 'id,active\n5,TRUE\n5,true\n', { recordIds: true, onRepeat: (row) => repeats.push(row.line) });
    expect(bad).toEqual([]);
    expect(items.map(([line]) => line)).toEqual([2]);
    expect(repeats).toEqual([3]);
  });

  it('reads stdin once for an upsert, duplicates decided', async () => {
    const stdin = Readable.from([Buffer.from('id,n\n1,a\n1,b\n2,c\n')]);
    const bad = recordingBadRows();
    const items = await collect(readRecords({ file: '-' }, { ...bad, recordIds: true, stdin }));
    expect(items.map((item) => item.line)).toEqual([4]);
    expect(bad.badRows.map((row) => row.line)).toEqual([2, 3]);
  });
});

describe('ids files', () => {
  it('bad ids are rows refused with their lines; an empty line between ids is one, the file’s trailing ones are not', async () => {
    const { ids: good, bad } = await ids('bad.txt', '1\nabc\n12.5\n\n-3\n1E+15\n2\n\n');
    expect(good).toEqual([
      [1, 1],
      [7, 2],
    ]);
    expect(bad.map(([line]) => line)).toEqual([2, 3, 4, 5, 6]);
    expect(bad[2]?.[1]).toBe('an empty line where an id belongs');
    expect(bad[4]?.[1]).toContain('exponent notation');
  });

  it('a one-column file headed `id` (any case) is ids; csv cells are text (0042 is 42, 1E+15 refused)', async () => {
    expect((await ids('header.txt', 'ID\n3\n4\n')).ids).toEqual([
      [2, 3],
      [3, 4],
    ]);
    const csv = await ids('ids.csv', 'ref,Id\na,0042\nb,1E+15\n');
    expect(csv.ids).toEqual([[2, 42]]);
    expect(csv.bad.map(([line]) => line)).toEqual([3]);
  });

  it('says what it saw rather than read every row as "no id field"', async () => {
    const headed = await ids('ref.txt', 'ref\n3\n').catch((error: unknown) => error);
    expect(headed).toBeInstanceOf(UsageError);
    expect(String((headed as Error).message)).toContain('starts with "ref": neither an id nor an \'id\' header');
    const columns = await ids('cols.txt', 'ref,name\n3,x\n').catch((error: unknown) => error);
    expect(String((columns as Error).message)).toContain("reads as csv with the columns ref, name: none of them is 'id'");
    expect((await ids('ref-field.txt', 'ref\n3\n', { idField: 'ref' })).ids).toEqual([[2, 3]]);
  });
});

describe('records held for the passes after the first', () => {
  const items = [1, 2, 3].map((i) => ({ value: { id: i, n: 10n ** 20n + BigInt(i) }, line: i + 1, cells: { id: String(i) } }));

  it('past the limit go to a spool (stdin) and read back exactly, numbers past 2^53 included', async () => {
    const held = new HeldRecords({ limit: 2, spill: true });
    for (const item of items) await held.add(item);
    await held.close();
    try {
      expect(held.complete).toBe(true);
      expect(await collect(held.read())).toEqual(items);
      expect(await collect(held.read())).toEqual(items);
    } finally {
      await held.remove();
    }
  });

  it('past the limit are dropped for a file, which is read again', async () => {
    const held = new HeldRecords({ limit: 2, spill: false });
    for (const item of items) await held.add(item);
    await held.close();
    expect(held.complete).toBe(false);
    const small = new HeldRecords({ limit: 5, spill: false });
    for (const item of items) await small.add(item);
    expect(small.complete).toBe(true);
    expect(await collect(small.read())).toEqual(items);
  });
});
