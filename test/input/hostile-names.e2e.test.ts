/**
 * Hostile names are data: a csv header or json field named `__proto__`,
 * `constructor` or `prototype` is a field like any other, never the record's
 * prototype (which would lend a row without an id the id it holds), and an
 * environment named `constructor` is not Object.prototype's. The CLI against the
 * real local server, the records read back.
 */
import { describe, expect, it } from 'vitest';
import { rowFiles, serverWithFolder } from '../bulk/helpers.js';

type Row = Record<string, unknown>;

const files = serverWithFolder();
const rows = rowFiles(files);
const pla = files.pla;

/** Two records to aim at; the second is the one a hostile row names. */
async function targets(prefix: string): Promise<Row[]> {
  const input = await rows.file(`${prefix}.ndjson`, `{"ref": "${prefix}-1", "amount": 1}\n{"ref": "${prefix}-2", "amount": 2}`);
  expect((await pla(['determinations', 'create', '--file', input])).exitCode).toBe(0);
  return rows.all(prefix);
}

describe('a field named __proto__ is a field', () => {
  it('a csv column __proto__ holding {"id": N} does not make a row without an id an overwrite of record N', async () => {
    const [first, second] = await targets('proto-csv');
    const csv = await rows.file('proto.csv', `ref,amount,__proto__,constructor,prototype\nproto-csv-new,9,"{""id"":${String(second?.id)}}",c,p\n`);

    const planned = await pla(['determinations', 'upsert', '--file', csv, '--plan', '-o', 'json']);
    expect(planned.exitCode, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as { counts: Row; entries: Array<{ action: string; id?: number }> };
    expect(plan.counts).toEqual({ create: 1 });
    expect(plan.entries[0]?.id).toBeUndefined();

    const run = await pla(['determinations', 'upsert', '--file', csv]);
    expect(run.exitCode, run.stderr).toBe(0);
    const after = await rows.all('proto-csv');
    expect(after.find((row) => row.id === second?.id)).toEqual(second);
    expect(after.find((row) => row.id === first?.id)).toEqual(first);
    expect(after.filter((row) => row.ref === 'proto-csv-new')).toEqual([expect.objectContaining({ amount: 9, constructor: 'c', prototype: 'p' })]);
  });

  it('a json record with a "__proto__" field holding an id is a create too', async () => {
    const [, second] = await targets('proto-json');
    const json = await rows.file('proto.json', JSON.stringify([{ ref: 'proto-json-new' }]).replace('{', `{"__proto__": {"id": ${String(second?.id)}}, `));
    const run = await pla(['determinations', 'upsert', '--file', json]);
    expect(run.exitCode, run.stderr).toBe(0);
    const after = await rows.all('proto-json');
    expect(after.find((row) => row.id === second?.id)).toEqual(second);
    expect(after.filter((row) => row.ref === 'proto-json-new')).toHaveLength(1);
  });
});

describe('an environment named constructor', () => {
  it('is an unknown environment, not Object.prototype.constructor', async () => {
    const run = await pla(['determinations', 'list', '-e', 'constructor']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('unknown environment constructor');
    expect(run.stderr).not.toContain('function Object()');
  });
});
