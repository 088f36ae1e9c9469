/**
 * Exact numbers end to end (issue 16 item 1): the built CLI against the real local
 * server holding ids from 9007199254740993 on (past 2^53, where a double rounds
 * …993 to …992) and amounts such as 12345678901234567.89 (a double makes it
 * …568). Every output format prints the digits, `list -q | delete --ids-file -`
 * deletes exactly the listed records, an edited export updates the right record
 * with the exact amount, plans, receipts and undo carry the ids, and a number no
 * double can hold (1e400) in an input is refused before anything is sent.
 *
 * The server's id counter starts past 2^53: the data folder's snapshot says so, or
 * on PostgreSQL (exact-numbers.postgres.test.ts runs this file there) its sequence.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonText } from '../../src/json/json-text.js';
import { parseJson } from '../../src/json/json-parse.js';
import { sequenceOf } from '../../src/store/postgres/schema.js';
import { tempDir } from '../bulk/helpers.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const FIRST = 9007199254740993n;
/** The ids the server gives the six records below, as text. */
const IDS = [0n, 1n, 2n, 3n, 4n, 5n].map((i) => String(FIRST + i));
const DET = '/api/v1/asset-transaction-type-determinations';

/** Amounts a double rounds, and an integer past 2^53 in a field that is not the id. */
const SEED = `[
  {"code":"EX-0","amount":12345678901234567.89,"ref":123456789012345678901},
  {"code":"EX-1","amount":0.12345678901234567891},
  {"code":"EX-2","amount":98765432109876543.21},
  {"code":"EX-3","amount":1.5},
  {"code":"EX-4","amount":10000000000000001},
  {"code":"EX-5","amount":-7.000000000000000001}
]`;

let server: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

/** The records the server holds now, read from its raw answer with the exact reader. */
async function held(): Promise<Array<Record<string, unknown>>> {
  const answer = await server.http('GET', `${DET}?size=100`);
  expect(answer.status).toBe(200);
  return (parseJson(answer.text) as { content: Array<Record<string, unknown>> }).content;
}

const idsHeld = async () => (await held()).map((record) => String(record.id));
const amountOf = async (id: string) => String((await held()).find((record) => String(record.id) === id)?.amount);

async function pla(args: string[], input?: string) {
  return server.pla(args, input === undefined ? {} : { input });
}

beforeAll(async () => {
  temp = await tempDir();
  // A data folder whose counter is past 2^53 (ignored when the server runs on PostgreSQL).
  const dataDir = temp.path('data');
  await mkdir(dataDir);
  await writeFile(`${dataDir}/snapshot.json`, `{"format":"pla-store/1","seq":0,"nextIds":{"determinations":${FIRST}},"collections":{\n}}\n`);
  server = await startLocalServer({ seed: false, dataDir });
  if (server.storeUrl) {
    const client = new pg.Client({ connectionString: server.storeUrl });
    await client.connect();
    await client.query(`ALTER SEQUENCE ${sequenceOf('determinations')} RESTART WITH ${FIRST}`);
    await client.end();
  }
  await writeFile(temp.path('seed.json'), SEED);
  const created = await pla(['determinations', 'create', '--file', temp.path('seed.json'), '-q']);
  expect(created.exitCode, String(created.stderr)).toBe(0);
  expect(String(created.stdout).trim().split('\n')).toEqual(IDS);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await temp?.cleanup();
});

describe('ids and amounts past double precision', () => {
  it('the server holds them exactly, also after a restart (journal and snapshot read back)', async () => {
    await server.restart();
    const records = await held();
    expect(records.map((record) => String(record.id))).toEqual(IDS);
    expect(records.map((record) => String(record.amount))).toEqual([
      '12345678901234567.89',
      '0.12345678901234567891',
      '98765432109876543.21',
      '1.5',
      '10000000000000001',
      '-7.000000000000000001',
    ]);
    expect(records[0]?.ref).toBe(123456789012345678901n);
    // The next record the restarted server creates takes the next id past them, not one of theirs.
    const next = await server.http('POST', DET, { body: '{"code":"EX-NEXT","amount":1}' });
    const created = (parseJson(next.text) as { data: { id: bigint } }).data.id;
    expect(created).toBe(FIRST + 6n);
    expect((await server.http('DELETE', `${DET}/${created}`)).status).toBeLessThan(300);
  });

  it('every output format prints the exact digits', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'table']) {
      const result = await pla(['determinations', 'list', '-o', format, '--wide']);
      expect(result.exitCode, String(result.stderr)).toBe(0);
      const out = String(result.stdout);
      for (const digits of [...IDS, '12345678901234567.89', '0.12345678901234567891', '123456789012345678901', '10000000000000001', '-7.000000000000000001']) {
        expect(out, `${format} prints ${digits}`).toContain(digits);
      }
      expect(out).not.toContain('9007199254740992');
      expect(out).not.toContain('12345678901234568');
    }
    const json = parseJson(String((await pla(['determinations', 'list', '-o', 'json'])).stdout)) as Array<Record<string, unknown>>;
    expect(json.map((record) => record.id)).toEqual(IDS.map(BigInt));
    const quiet = await pla(['determinations', 'list', '-q']);
    expect(String(quiet.stdout).trim().split('\n')).toEqual(IDS);
    const one = await pla(['determinations', 'get', IDS[0] as string, '--fields', 'id,amount,ref', '-o', 'csv']);
    expect(String(one.stdout)).toBe(`id,amount,ref\n${IDS[0]},12345678901234567.89,123456789012345678901`);
  });

  it('list -q | delete --ids-file - deletes exactly the listed records', async () => {
    const listed = await pla(['determinations', 'list', '-q', '--size', '2']);
    expect(String(listed.stdout).trim().split('\n')).toEqual(IDS.slice(0, 2));
    const deleted = await pla(['determinations', 'delete', '--ids-file', '-', '--yes'], String(listed.stdout));
    expect(deleted.exitCode, String(deleted.stderr)).toBe(0);
    expect(await idsHeld()).toEqual(IDS.slice(2));
  });

  it('--dry-run and --plan of a delete name the records exactly and change nothing', async () => {
    const ids = [IDS[2] as string, IDS[3] as string];
    const dry = await pla(['determinations', 'delete', ...ids, '--dry-run', '-o', 'ndjson']);
    expect(dry.exitCode, String(dry.stderr)).toBe(0);
    const rows = String(dry.stdout)
      .trim()
      .split('\n')
      .map((line) => parseJson(line) as Record<string, unknown>);
    expect(rows.map((row) => [String(row.id), String(row.amount)])).toEqual([
      [IDS[2], '98765432109876543.21'],
      [IDS[3], '1.5'],
    ]);
    const planned = await pla(['determinations', 'delete', ...ids, '--plan', '-o', 'json']);
    expect(planned.exitCode, String(planned.stderr)).toBe(0);
    const plan = parseJson(String(planned.stdout)) as { entries: Array<{ action: string; id: unknown }> };
    expect(plan.entries.map((entry) => [entry.action, String(entry.id)])).toEqual(ids.map((id) => ['delete', id]));
    expect(await idsHeld()).toEqual(IDS.slice(2));
  });

  it('an edited json export upserts the right record with the exact amount', async () => {
    const exported = await pla(['determinations', 'list', '-o', 'json']);
    const records = parseJson(String(exported.stdout)) as Array<Record<string, unknown>>;
    const target = records.find((record) => String(record.id) === IDS[3]) as Record<string, unknown>;
    target.amount = parseJson('22345678901234567.91');
    await writeFile(temp.path('edited.json'), jsonText(records, 2));
    const upserted = await pla(['determinations', 'upsert', '--file', temp.path('edited.json')]);
    expect(upserted.exitCode, String(upserted.stderr)).toBe(0);
    expect(await idsHeld()).toEqual(IDS.slice(2));
    expect(await amountOf(IDS[3] as string)).toBe('22345678901234567.91');
    expect(await amountOf(IDS[2] as string)).toBe('98765432109876543.21');
  });

  it('an edited csv export upserts the right record with the exact amount', async () => {
    const exported = String((await pla(['determinations', 'list', '-o', 'csv', '--fields', 'id,code,amount'])).stdout);
    const edited = exported.replace(`${IDS[4]},EX-4,10000000000000001`, `${IDS[4]},EX-4,10000000000000003.5`);
    expect(edited).not.toBe(exported);
    await writeFile(temp.path('edited.csv'), edited);
    const upserted = await pla(['determinations', 'upsert', '--file', temp.path('edited.csv')]);
    expect(upserted.exitCode, String(upserted.stderr)).toBe(0);
    expect(await idsHeld()).toEqual(IDS.slice(2));
    expect(await amountOf(IDS[4] as string)).toBe('10000000000000003.5');
    expect(await amountOf(IDS[5] as string)).toBe('-7.000000000000000001');
  });

  it('plan, apply, receipt and undo carry the ids and amounts exactly', async () => {
    const id = IDS[2] as string;
    await writeFile(temp.path('change.ndjson'), `{"id":${id},"amount":55555555555555555.55}\n`);
    const planned = await pla(['determinations', 'update', '--file', temp.path('change.ndjson'), '--plan-out', temp.path('plan.json')]);
    expect(planned.exitCode, String(planned.stderr)).toBe(0);
    const planText = await readFile(temp.path('plan.json'), 'utf8');
    expect(planText).toContain(`"id": ${id}`);
    expect(planText).toContain('"new": 55555555555555555.55');
    expect(planText).toContain('"old": 98765432109876543.21');
    expect(await amountOf(id)).toBe('98765432109876543.21');

    const applied = await pla(['apply', temp.path('plan.json'), '--yes']);
    expect(applied.exitCode, String(applied.stderr)).toBe(0);
    expect(await amountOf(id)).toBe('55555555555555555.55');

    const runs = parseJson(String((await pla(['runs', 'list', '-o', 'json'])).stdout)) as Array<{ run: string; command: string }>;
    const run = runs.find((one) => one.command.startsWith('apply'))?.run as string;
    const receipt = String((await pla(['runs', 'show', run, '-o', 'ndjson'])).stdout);
    expect(receipt).toContain(`"id":${id}`);
    expect(receipt).toContain('"amount":98765432109876543.21');

    const undone = await pla(['runs', 'undo', run, '--yes']);
    expect(undone.exitCode, String(undone.stderr)).toBe(0);
    expect(await amountOf(id)).toBe('98765432109876543.21');
    expect(await idsHeld()).toEqual(IDS.slice(2));
  });

  it('1e400 in an input is refused with a clear error before anything is sent', async () => {
    const before = jsonText(await held());
    const inputs: Array<[string, string]> = [
      ['big.json', '[{"code":"OK"},{"code":"BIG","amount":1e400}]'],
      ['big.ndjson', '{"code":"OK"}\n{"code":"BIG","amount":1e400}\n'],
      ['big.csv', 'code,amount\nOK,1\nBIG,1e400\n'],
    ];
    for (const [name, text] of inputs) {
      await writeFile(temp.path(name), text);
      const result = await pla(['determinations', 'create', '--file', temp.path(name)]);
      expect(result.exitCode, name).toBe(2);
      expect(String(result.stderr), name).toMatch(/line \d+: 1e400 is too large for a JSON number/);
    }
    const inline = await pla(['determinations', 'create', '--data', '{"code":"BIG","amount":-1e400}']);
    expect(inline.exitCode).toBe(2);
    expect(String(inline.stderr)).toContain('-1e400 is too large for a JSON number');
    const update = await pla(['determinations', 'update', IDS[2] as string, '--data', '{"amount":1e-400}']);
    expect(update.exitCode).toBe(2);
    expect(String(update.stderr)).toContain('1e-400 is too small for a JSON number');
    expect(jsonText(await held())).toBe(before);
  });
});
