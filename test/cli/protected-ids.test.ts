/**
 * A protected environment reads the record before for every id spelling the read
 * by id accepts: `"7"` in a record (the real service's JSON reader takes it as 7;
 * the local server refuses it, so this runs against the contract's fake service,
 * whose request log shows the GET before the change) and ids past 2^53. The refusal
 * of ids that cannot be read, and bulk runs, are in test/plan/plan-apply.e2e.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/json-parse.js';
import type { FakeServer } from '../support/fake-server.js';
import { pla, startContractServer, tempDir, TEST_KEY } from './support.js';

let config: Awaited<ReturnType<typeof tempDir>>;
let server: FakeServer;

beforeEach(async () => {
  config = await tempDir();
  server = await startContractServer();
  const setup = (args: string[], input?: string) => pla(args, { configDir: config.path, ...(input === undefined ? {} : { input }) });
  expect((await setup(['config', 'set-url', server.url, '-e', 'qa'])).exitCode).toBe(0);
  expect((await setup(['config', 'set-key', '-e', 'qa'], TEST_KEY)).exitCode).toBe(0);
  expect((await setup(['config', 'protect', 'qa'])).exitCode).toBe(0);
});

afterEach(async () => {
  await server.close();
  await config.remove();
});

const inQa = (args: string[]) => pla(['-e', 'qa', ...args], { configDir: config.path });

async function lastRecords(): Promise<Array<Record<string, unknown>>> {
  const shown = await inQa(['runs', 'show', 'last', '-o', 'json']);
  expect(shown.exitCode, shown.stderr).toBe(0);
  // Read exactly: the receipt keeps an id past 2^53 as the number it is.
  return (parseJson(shown.stdout) as { records: Array<Record<string, unknown>> }).records;
}

/** The requests the service got, as `METHOD path`, without the id-less prefix. */
const calls = () => server.requests.map((req) => `${req.method} ${req.path.replace(/^.*\//, '…/')}`);

describe('the record before on a protected environment', () => {
  it('is read for an id written "7" in the record, and the receipt names record 7', async () => {
    const updated = await inQa(['determinations', 'update', '--data', '{"id": "7", "name": "renamed"}']);
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(calls()).toEqual(['GET …/7', 'PUT …/7']);
    expect(await lastRecords()).toEqual([expect.objectContaining({ action: 'update', id: 7, before: expect.objectContaining({ name: 'alpha' }) })]);
  });

  it('is read for an id past 2^53 before a delete', async () => {
    const deleted = await inQa(['determinations', 'delete', '9007199254740993', '--yes']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect(calls().slice(0, 2)).toEqual(['GET …/9007199254740993', 'DELETE …/9007199254740993']);
    expect(await lastRecords()).toEqual([
      expect.objectContaining({ action: 'delete', id: 9007199254740993n, before: expect.objectContaining({ name: 'alpha' }) }),
    ]);
  });

  it('is not needed off a protected environment: an upsert of "7" that kept its id is an update, not a create (an undo must not delete record 7)', async () => {
    expect((await pla(['config', 'unprotect', 'qa'], { configDir: config.path })).exitCode).toBe(0);
    // The fake answers record 7 as it holds it (name "alpha"): an update is confirmed only by an answer showing what was sent.
    const upserted = await inQa(['determinations', 'upsert', '--data', '{"id": "7", "name": "alpha"}']);
    expect(upserted.exitCode, upserted.stderr).toBe(0);
    expect(calls()).toEqual(['PUT …/createOrUpdate']);
    expect(await lastRecords()).toEqual([expect.objectContaining({ action: 'update', id: 7 })]);
  });

  it('is read for ids "7" in a bulk upsert', async () => {
    const upserted = await inQa(['determinations', 'upsert', '--data', '[{"id": "7", "name": "a"}, {"id": "8", "name": "b"}]']);
    expect(upserted.exitCode, upserted.stderr).toBe(0);
    expect(calls().filter((call) => call.startsWith('GET'))).toEqual(['GET …/7', 'GET …/8']);
    expect((await lastRecords()).map((record) => [record.id, record.before !== undefined])).toEqual([
      [7, true],
      [8, true],
    ]);
  });
});
