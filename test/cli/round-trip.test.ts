/**
 * Exports that feed back whole (issue 11 item 8): `list --all -o csv` (or ndjson)
 * → `upsert --file` → `list --all -o csv` gives the same file, on records with
 * numeric-looking strings, nested objects and arrays, and fields the first record
 * lacks. The built CLI against the real local server.
 *
 * The one column that must differ is `updatedAt`: the service stamps every upsert
 * (it is server-owned), so the files are compared with that column blanked.
 */
import { writeFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { tempDir } from '../bulk/helpers.js';

/** Awkward on purpose: each field is one way a csv loses or changes data. */
const RECORDS = [
  { ref: 'rt-1', code: '00123', amount: 12.5 },
  {
    ref: 'rt-2',
    code: '123',
    flag: 'true',
    exponent: '1e3',
    count: 7,
    active: false,
    meta: { region: 'EU', limits: [1, 2, { nested: null }] },
    note: '{"looks":"like json"}',
  },
  { ref: 'rt-3', code: '-4.0', empty: '', quote: '"quoted" text', list: ['a', 'b'], comma: 'a, b\nc', spaces: ' 12 ' },
];

let server: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  server = await startLocalServer({ seed: false });
  temp = await tempDir();
  const seed = temp.path('seed.ndjson');
  await writeFile(seed, RECORDS.map((r) => JSON.stringify(r)).join('\n'));
  const created = await server.pla(['determinations', 'upsert', '--file', seed]);
  expect(created.exitCode, String(created.stderr)).toBe(0);
});
afterAll(async () => {
  await server?.stop();
  await temp?.cleanup();
});

async function list(format: 'csv' | 'ndjson'): Promise<string> {
  const result = await server.pla(['determinations', 'list', '--all', '--size', '2', '-o', format]);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return String(result.stdout);
}

/** The csv with its updatedAt cells blanked (see the module comment). */
function withoutUpdatedAt(csv: string): string {
  const rows = parse(csv) as string[][];
  const at = rows[0]?.indexOf('updatedAt') ?? -1;
  expect(at).toBeGreaterThan(-1);
  return stringify(rows.map((row, i) => (i === 0 ? row : row.map((cell, j) => (j === at ? '' : cell)))));
}

const records = (ndjson: string): Array<Record<string, unknown>> =>
  ndjson
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Records without the server's stamp, for comparing values and types. */
const unstamped = (list: Array<Record<string, unknown>>) => list.map(({ updatedAt: _updatedAt, ...rest }) => rest);

describe('export → upsert → export', () => {
  it('csv: the same file, every field of every record, types kept', async () => {
    const before = await list('csv');
    const stored = records(await list('ndjson'));
    // Every field of every record has a column, though the first record lacks most.
    const header = (parse(before) as string[][])[0] ?? [];
    for (const record of RECORDS) for (const key of Object.keys(record)) expect(header).toContain(key);

    const file = temp.path('export.csv');
    await writeFile(file, before);
    const upsert = await server.pla(['determinations', 'upsert', '--file', file]);
    expect(upsert.exitCode, String(upsert.stderr)).toBe(0);

    const after = await list('csv');
    expect(withoutUpdatedAt(after)).toBe(withoutUpdatedAt(before));
    // Read back through the service: numeric-looking strings are still strings,
    // numbers numbers, nested objects objects.
    const again = records(await list('ndjson'));
    expect(unstamped(again)).toEqual(unstamped(stored));
    expect(again.find((r) => r.ref === 'rt-2')).toMatchObject({ code: '123', flag: 'true', exponent: '1e3', count: 7, active: false, meta: RECORDS[1]?.meta });
    expect(again.find((r) => r.ref === 'rt-1')).toMatchObject({ code: '00123', amount: 12.5 });
  });

  it('ndjson: the same file, every field of every record, types kept', async () => {
    const before = await list('ndjson');
    const file = temp.path('export.ndjson');
    await writeFile(file, before);
    const upsert = await server.pla(['determinations', 'upsert', '--file', file]);
    expect(upsert.exitCode, String(upsert.stderr)).toBe(0);

    const after = await list('ndjson');
    expect(unstamped(records(after))).toEqual(unstamped(records(before)));
    for (const original of RECORDS) expect(records(after).find((r) => r.ref === original.ref)).toMatchObject(original);
  });
});
