import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../../src/errors.js';
import { readRecords } from '../../src/io/input/index.js';
import { collect, recordingBadRows, tempFolder } from './helpers.js';

let folder: Awaited<ReturnType<typeof tempFolder>>;
beforeAll(async () => {
  folder = await tempFolder();
});
afterAll(() => folder.cleanup());

describe('json input', () => {
  it('streams the elements of a pretty-printed array with the line each starts on', async () => {
    const path = await folder.file(
      'records.json',
      '[\n  {"ref": "a", "n": 1},\n  {\n    "ref": "b",\n    "text": "a [ bracket, a } brace and a \\" quote"\n  },\n  {"ref": "c", "nested": {"x": [1, 2]}}\n]\n',
    );
    const items = await collect(readRecords({ file: path }));
    expect(items).toEqual([
      { value: { ref: 'a', n: 1 }, line: 2 },
      { value: { ref: 'b', text: 'a [ bracket, a } brace and a " quote' }, line: 3 },
      { value: { ref: 'c', nested: { x: [1, 2] } }, line: 7 },
    ]);
  });

  it('reads a single json object as one record', async () => {
    const path = await folder.file('one.json', '{\n  "ref": "solo",\n  "amount": 12.5\n}\n');
    expect(await collect(readRecords({ file: path }))).toEqual([{ value: { ref: 'solo', amount: 12.5 }, line: 1 }]);
  });

  it('skips elements that are not objects, reporting their lines, and counts them', async () => {
    const path = await folder.file('mixed.json', '[\n{"ref": "a"},\n42,\n"text",\n[1, 2],\nnull,\n{"ref": "b"}\n]');
    const bad = recordingBadRows();
    const source = readRecords({ file: path }, bad);
    const items = await collect(source);
    expect(items.map((i) => [i.value.ref, i.line])).toEqual([
      ['a', 2],
      ['b', 7],
    ]);
    expect(bad.badRows.map((r) => [r.line, r.message])).toEqual([
      [3, 'expected a JSON object, got number'],
      [4, 'expected a JSON object, got string'],
      [5, 'expected a JSON object, got array'],
      [6, 'expected a JSON object, got null'],
    ]);
    expect(source.stats).toEqual({ items: 2, badRows: 4, refused: 0, repeats: 0 });
  });

  it('stops at the first non-object element with strict', async () => {
    const path = await folder.file('strict.json', '[\n{"ref": "a"},\n\n7\n]');
    const error = await collect(readRecords({ file: path }, { strict: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).line).toBe(4);
  });

  it('throws InputError with the line of the element a syntax error is in', async () => {
    const path = await folder.file('broken.json', '[\n{"ref": "a"},\n{"ref": "b"},\n{"ref": "c" "oops": 1}\n]');
    const error = await collect(readRecords({ file: path })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).line).toBe(4);
    expect((error as InputError).message).toMatch(/^line 4: malformed JSON/);
  });

  it('drops the _error field a rejects file adds', async () => {
    const path = await folder.file('rejects.json', '[{"ref": "a", "_error": "amount: required"}]');
    expect(await collect(readRecords({ file: path }))).toEqual([{ value: { ref: 'a' }, line: 1 }]);
  });
});

describe('ndjson input', () => {
  it('reads one record a line, skipping blank lines', async () => {
    const path = await folder.file('records.ndjson', '{"ref":"a"}\n\n   \n{"ref":"b","_error":"x"}\r\n{"ref":"c"}');
    expect(await collect(readRecords({ file: path }))).toEqual([
      { value: { ref: 'a' }, line: 1 },
      { value: { ref: 'b' }, line: 4 },
      { value: { ref: 'c' }, line: 5 },
    ]);
  });

  it('skips malformed lines with their numbers, or stops at the first with strict', async () => {
    const path = await folder.file('bad.jsonl', '{"ref":"a"}\n{"ref": \n{"ref":"c"}\n[1]\n');
    const bad = recordingBadRows();
    const items = await collect(readRecords({ file: path }, bad));
    expect(items.map((i) => i.line)).toEqual([1, 3]);
    expect(bad.badRows.map((r) => r.line)).toEqual([2, 4]);
    expect(bad.badRows[0]?.raw).toBe('{"ref":');
    expect(bad.badRows[0]?.message).toMatch(/malformed JSON/);

    const error = await collect(readRecords({ file: path }, { strict: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(/^line 2: malformed JSON/);
  });
});

describe('csv input', () => {
  const csv = 'ref,amount,active,code,note,_error\nr1,12.5,true,007,"123",old error\nr2,-3,false,10,,\n"r3",1e3,TRUE,x,"multi\nline",\n';

  it('types cells: numbers, booleans, empty cells left out, quoted cells and leading zeros kept as text', async () => {
    const path = await folder.file('records.csv', csv);
    const items = await collect(readRecords({ file: path }));
    expect(items.map((i) => i.line)).toEqual([2, 3, 4]);
    expect(items.map((i) => JSON.parse(JSON.stringify(i.value)))).toEqual([
      { ref: 'r1', amount: 12.5, active: true, code: '007', note: '123' },
      { ref: 'r2', amount: -3, active: false, code: 10 },
      { ref: 'r3', amount: 1000, active: 'TRUE', code: 'x', note: 'multi\nline' },
    ]);
  });

  it('keeps every cell a string with raw', async () => {
    const path = await folder.file('raw.csv', csv);
    const items = await collect(readRecords({ file: path }, { raw: true }));
    expect(items[1]?.value).toEqual({ ref: 'r2', amount: '-3', active: 'false', code: '10', note: '' });
  });

  it('skips rows with the wrong number of cells, with their lines; strict stops', async () => {
    const path = await folder.file('short.csv', 'ref,amount\nr1,1\nr2\nr3,3\nr4,4,extra\n\n"r5\nmore",5\nr6,6\n');
    const bad = recordingBadRows();
    const source = readRecords({ file: path }, bad);
    expect((await collect(source)).map((i) => [i.value.ref, i.line])).toEqual([
      ['r1', 2],
      ['r3', 4],
      ['r5\nmore', 7],
      ['r6', 9],
    ]);
    expect(bad.badRows.map((r) => r.line)).toEqual([3, 5]);
    expect(bad.badRows[0]?.raw).toBe('r2\n');
    expect(source.stats.badRows).toBe(2);

    const error = await collect(readRecords({ file: path }, { strict: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).line).toBe(3);
  });
});

describe('format selection', () => {
  it('sniffs files without a known extension, and honours an explicit format', async () => {
    const ndjson = await folder.file('records.txt', '{"ref":"a"}\n{"ref":"b"}\n');
    const pretty = await folder.file('pretty', '{\n  "ref": "p"\n}\n');
    const array = await folder.file('array.data', ' [{"ref":"x"}]');
    const csvFile = await folder.file('table.data', 'ref,n\nq,1\n');
    expect((await collect(readRecords({ file: ndjson }))).map((i) => i.value.ref)).toEqual(['a', 'b']);
    expect((await collect(readRecords({ file: pretty }))).map((i) => i.value.ref)).toEqual(['p']);
    expect((await collect(readRecords({ file: array }))).map((i) => i.value.ref)).toEqual(['x']);
    expect((await collect(readRecords({ file: csvFile }))).map((i) => i.value)).toEqual([{ ref: 'q', n: 1 }]);
    const forced = await folder.file('forced.json', 'ref,n\nq,1\n');
    expect((await collect(readRecords({ file: forced }, { format: 'csv' }))).map((i) => i.value.ref)).toEqual(['q']);
  });

  it('ignores a byte order mark in every format', async () => {
    const bom = '\uFEFF';
    for (const [name, text] of [
      ['bom.json', `${bom}[\n{"ref":"a"}\n]`],
      ['bom-object.json', `${bom}{"ref":"a"}`],
      ['bom.ndjson', `${bom}{"ref":"a"}\n`],
      ['bom.csv', `${bom}ref\na\n`],
      ['bom-sniffed', `${bom}{"ref":"a"}\n`],
    ] as const) {
      expect(
        (await collect(readRecords({ file: await folder.file(name, text) }))).map((i) => i.value),
        name,
      ).toEqual([{ ref: 'a' }]);
    }
  });

  it('says which file it cannot read', async () => {
    const error = await collect(readRecords({ file: `${folder.dir}/missing.csv` })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/missing\.csv: no such file/);
  });
});

describe('--data', () => {
  it('takes an object or an array of objects', async () => {
    expect(await collect(readRecords({ data: '{"ref":"a"}' }))).toEqual([{ value: { ref: 'a' }, line: 1 }]);
    expect((await collect(readRecords({ data: '[{"ref":"a"},\n{"ref":"b"}]' }))).map((i) => i.line)).toEqual([1, 2]);
  });

  it('rejects malformed JSON with where it broke', async () => {
    const error = await collect(readRecords({ data: '{"ref":"a",\n "n" 1}' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).line).toBe(2);
    expect((error as Error).message).toMatch(/--data is not valid JSON/);
  });

  it('needs some input', async () => {
    await expect(collect(readRecords({}))).rejects.toBeInstanceOf(UsageError);
  });
});
