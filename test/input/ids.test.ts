import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../../src/errors.js';
import { readIds } from '../../src/io/input/index.js';
import { collect, recordingBadRows, tempFolder } from './helpers.js';

let folder: Awaited<ReturnType<typeof tempFolder>>;
beforeAll(async () => {
  folder = await tempFolder();
});
afterAll(() => folder.cleanup());

const values = async (source: AsyncIterable<{ value: unknown }>) =>
  (await collect(source as AsyncIterable<{ value: unknown; line: number }>)).map((i) => i.value);

describe('readIds', () => {
  it('takes positional ids, then --ids, then the ids file', async () => {
    const path = await folder.file('ids.txt', '7\n\n8\n');
    expect(await values(readIds({ ids: ['1', '2'], idsOption: '3, 4,', idsFile: path }))).toEqual([1, 2, 3, 4, 7, 8]);
  });

  it('refuses a typed id that is not a positive integer', async () => {
    for (const bad of ['abc', '0', '-3', '1.5', '99999999999999999999']) {
      const error = await collect(readIds({ idsOption: `1,${bad}` })).catch((e: unknown) => e);
      expect(error, bad).toBeInstanceOf(UsageError);
    }
  });

  it('reports bad ids in a file with their lines, or stops with strict', async () => {
    const path = await folder.file('ids', '10\nx11\n12\n0\n  13  \n');
    const bad = recordingBadRows();
    const items = await collect(readIds({ idsFile: path }, bad));
    expect(items).toEqual([
      { value: 10, line: 1 },
      { value: 12, line: 3 },
      { value: 13, line: 5 },
    ]);
    expect(bad.badRows.map((r) => [r.line, r.message])).toEqual([
      [2, "'x11' is not an id (a positive integer)"],
      [4, "'0' is not an id (a positive integer)"],
    ]);
    const error = await collect(readIds({ idsFile: path }, { strict: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).line).toBe(2);
  });

  it('reads a json array of ids or of records, ndjson and csv by idField', async () => {
    const bare = await folder.file('bare.json', '[1, 2,\n 3]');
    const records = await folder.file('records.json', '[{"id": 4}, {"id": "5"}]');
    const ndjson = await folder.file('tasks.ndjson', '{"taskId": 6, "status": "PENDING"}\n{"taskId": 7}\n{"other": 1}\n');
    const csv = await folder.file('tasks.csv', 'name,taskId\na,8\nb,9\n');
    expect(await values(readIds({ idsFile: bare }))).toEqual([1, 2, 3]);
    expect(await values(readIds({ idsFile: records }))).toEqual([4, 5]);
    const bad = recordingBadRows();
    expect(await values(readIds({ idsFile: ndjson }, { idField: 'taskId', ...bad }))).toEqual([6, 7]);
    expect(bad.badRows.map((r) => [r.line, r.message])).toEqual([[3, "no 'taskId' field"]]);
    expect(await values(readIds({ idsFile: csv }, { idField: 'taskId' }))).toEqual([8, 9]);
  });
});
