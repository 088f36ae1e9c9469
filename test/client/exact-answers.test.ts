/**
 * A service that answers numbers a double cannot hold, in any field (issue 16
 * item 1): the built CLI against a test server of our own whose answers carry
 * ids past 2^53 in fields that are not `id` (a parent id, a ledger number in a
 * nested list), amounts with more digits than a double keeps, and 1e400. What
 * pla prints and what it sends back keep every digit; nothing is turned into the
 * nearest double, `null` or `Infinity`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import { pla, tempDir } from '../cli/support.js';

const DET = '/api/v1/asset-transaction-type-determinations';
/** One record as the service writes it: raw JSON text, since JavaScript cannot hold these numbers. */
const RECORD =
  '{"id":9007199254740993,"parentId":9007199254740995,"amount":12345678901234567.89,"rate":0.12345678901234567891,"huge":1e400,"ledger":{"entries":[9223372036854775807,-9007199254740993]}}';
const SECOND = '{"id":9007199254740995,"parentId":null,"amount":-98765432109876543.21}';
const DIGITS = [
  '9007199254740993',
  '9007199254740995',
  '12345678901234567.89',
  '0.12345678901234567891',
  '9223372036854775807',
  '-9007199254740993',
  '-98765432109876543.21',
];

let server: FakeServer;
let temp: Awaited<ReturnType<typeof tempDir>>;
const run = (args: string[], input?: string) => pla(args, { server, configDir: temp.path, ...(input === undefined ? {} : { input }) });

beforeAll(async () => {
  temp = await tempDir();
  server = await startFakeServer([
    { method: 'GET', path: `${DET}/9007199254740993`, reply: { body: `{"success":true,"message":"ok","data":${RECORD}}` } },
    { method: 'PUT', path: `${DET}/9007199254740993`, reply: (req) => ({ body: `{"success":true,"message":"updated","data":${req.bodyText}}` }) },
    // The ids named, exactly: a bulk answer confirms only the items it names (a bare count is read back).
    { method: 'DELETE', path: `${DET}/bulk`, reply: { body: '{"success":true,"message":"deleted 9007199254740993, 9007199254740995","data":null}' } },
    {
      method: 'GET',
      path: DET,
      reply: { body: `{"content":[${RECORD},${SECOND}],"page":{"size":20,"number":0,"totalElements":2,"totalPages":1}}` },
    },
  ]);
});

afterAll(async () => {
  await server?.close();
  await temp?.remove();
});

describe('answers with numbers past double precision', () => {
  it('get prints every number of the answer exactly, whatever its field', async () => {
    const result = await run(['determinations', 'get', '9007199254740993', '-o', 'ndjson']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${RECORD}\n`);
    expect(server.requests.at(-1)?.path).toBe(`${DET}/9007199254740993`);
  });

  it('list prints them exactly in json, csv, table and -q', async () => {
    const json = await run(['determinations', 'list', '-o', 'json']);
    const csv = await run(['determinations', 'list', '-o', 'csv']);
    const table = await run(['determinations', 'list', '-o', 'table', '--wide']);
    for (const [format, result] of [
      ['json', json],
      ['csv', csv],
      ['table', table],
    ] as const) {
      expect(result.exitCode, result.stderr).toBe(0);
      for (const digits of [...DIGITS, '1e400']) expect(result.stdout, `${format}: ${digits}`).toContain(digits);
      expect(result.stdout).not.toMatch(/9007199254740992|12345678901234568\b|Infinity|null,\s*"ledger"/);
    }
    expect(json.stdout).toContain('"huge": 1e400');
    expect(csv.stdout.split('\n')[1]).toBe(
      '9007199254740993,9007199254740995,12345678901234567.89,0.12345678901234567891,1e400,"{""entries"":[9223372036854775807,-9007199254740993]}"',
    );
    const quiet = await run(['determinations', 'list', '-q']);
    expect(quiet.stdout).toBe('9007199254740993\n9007199254740995\n');
  });

  it('sends ids and amounts as typed, and prints the answer to them exactly', async () => {
    const result = await run([
      'determinations',
      'update',
      '9007199254740993',
      '--data',
      '{"amount":12345678901234567.89,"parentId":9223372036854775807}',
      '-o',
      'ndjson',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const sent = server.requests.at(-1);
    expect(sent?.method).toBe('PUT');
    expect(sent?.path).toBe(`${DET}/9007199254740993`);
    expect(sent?.bodyText).toBe('{"amount":12345678901234567.89,"parentId":9223372036854775807}');
    expect(result.stdout).toBe('{"amount":12345678901234567.89,"parentId":9223372036854775807}\n');
  });

  it('a listed -q fed to a bulk delete sends exactly the listed ids', async () => {
    const listed = await run(['determinations', 'list', '-q']);
    const deleted = await run(['determinations', 'delete', '--ids-file', '-', '--yes'], listed.stdout);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    const sent = server.requests.at(-1);
    expect(sent?.method).toBe('DELETE');
    expect(sent?.bodyText).toBe('[9007199254740993,9007199254740995]');
  });

  it('ids in a json ids file stay exact', async () => {
    const file = join(temp.path, 'ids.json');
    await writeFile(file, '[{"id":9007199254740993},{"id":9007199254740995}]');
    const deleted = await run(['determinations', 'delete', '--ids-file', file, '--yes']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect(server.requests.at(-1)?.bodyText).toBe('[9007199254740993,9007199254740995]');
  });

  it('refuses 1e400 in a --data argument: nothing is sent', async () => {
    const before = server.requests.length;
    const result = await run(['determinations', 'update', '9007199254740993', '--data', '{"amount":1e400}']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('1e400 is too large for a JSON number');
    expect(server.requests.length).toBe(before);
  });
});
