/**
 * What a command prints does not depend on how many ids or records it got
 * (issue 8, item 6): the built CLI against the real local server, and, for what
 * the spec leaves open (a remove's answer), against a service that says nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../support/fake-server.js';
import { type LocalServer, startLocalServer } from '../support/local-server.js';
import { TEST_KEY, pla, tempDir } from './support.js';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ seed: false });
}, 60_000);
afterAll(() => server?.stop());

interface Stored {
  id: number;
  name: string;
  status?: string;
}

async function run(args: string[], input?: string) {
  const result = await server.pla(args, input === undefined ? {} : { input });
  return { code: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Creates determinations (one call each) and returns them as stored. */
async function create(...records: Array<Record<string, unknown>>): Promise<Stored[]> {
  const made: Stored[] = [];
  for (const record of records) {
    const result = await run(['det', 'create', '--data', JSON.stringify(record), '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    made.push(JSON.parse(result.stdout) as Stored);
  }
  return made;
}

const ndjson = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Stored);

describe('printing: one or many, the same rules', () => {
  it('decommission of three ids prints the three records the service returned, as one id prints one', async () => {
    const [a, b, c, d] = await create({ name: 'dc-a' }, { name: 'dc-b' }, { name: 'dc-c' }, { name: 'dc-d' });
    const three = await run(['det', 'decommission', String(a?.id), String(b?.id), String(c?.id), '--yes', '-o', 'json']);
    expect(three.code, three.stderr).toBe(0);
    const records = JSON.parse(three.stdout) as Stored[];
    expect(records.map((r) => [r.id, r.name, r.status])).toEqual([
      [a?.id, 'dc-a', 'DECOMMISSIONED'],
      [b?.id, 'dc-b', 'DECOMMISSIONED'],
      [c?.id, 'dc-c', 'DECOMMISSIONED'],
    ]);
    expect(three.stderr).toMatch(/^decommissioned 3, failed 0/m);

    const one = await run(['det', 'decommission', String(d?.id), '--yes', '-o', 'json']);
    expect(JSON.parse(one.stdout)).toMatchObject({ id: d?.id, name: 'dc-d', status: 'DECOMMISSIONED' });
  });

  it('settings create with an array in --data and -q prints the two new ids', async () => {
    const result = await run(['settings', 'create', '--data', '[{"name": "s-one"}, {"name": "s-two"}]', '-q']);
    expect(result.code, result.stderr).toBe(0);
    const ids = result.stdout.trim().split('\n');
    expect(ids).toHaveLength(2);
    for (const [index, id] of ids.entries()) {
      expect(id).toMatch(/^\d+$/);
      const shown = await run(['settings', 'get', id, '-o', 'json']);
      expect(JSON.parse(shown.stdout)).toMatchObject({ id: Number(id), name: ['s-one', 's-two'][index] });
    }
  });

  it('a bulk upsert prints what the service returned for each record, in input order, in every format', async () => {
    // Small batches several at once: batches may finish out of order, the output may not.
    const bulk = ['--batch-size', '2', '--concurrency', '4'];
    const names = Array.from({ length: 9 }, (_, i) => `up-${i}`);
    const input = names.map((name) => JSON.stringify({ name })).join('\n');

    const json = await run(['det', 'upsert', '--file', '-', '--format', 'ndjson', ...bulk, '-o', 'json'], input);
    expect(json.code, json.stderr).toBe(0);
    const created = JSON.parse(json.stdout) as Stored[];
    expect(created.map((r) => r.name)).toEqual(names);
    expect(created.every((r) => Number.isInteger(r.id))).toBe(true);
    expect(json.stderr).toMatch(/^upserted 9 \(created 9, updated 0\), failed 0/m);

    // The same records again, carrying their ids: an update of each, printed in order.
    const again = created.map((r) => JSON.stringify({ id: r.id, name: `${r.name}!` })).join('\n');
    const lines = await run(['det', 'upsert', '--file', '-', '--format', 'ndjson', ...bulk, '-o', 'ndjson'], again);
    expect(ndjson(lines.stdout).map((r) => [r.id, r.name])).toEqual(created.map((r) => [r.id, `${r.name}!`]));

    const csv = await run(['det', 'update', '--file', '-', '--format', 'ndjson', ...bulk, '-o', 'csv', '--fields', 'id,name'], again);
    expect(csv.stdout.trim().split('\n')).toEqual(['id,name', ...created.map((r) => `${r.id},${r.name}!`)]);

    const quiet = await run(['det', 'create', '--file', '-', '--format', 'ndjson', ...bulk, '-q'], input);
    const ids = quiet.stdout.trim().split('\n').map(Number);
    expect(ids).toHaveLength(9);
    const stored = new Map(ndjson((await run(['det', 'list', '--all', '-o', 'ndjson'])).stdout).map((r) => [r.id, r.name]));
    expect(ids.map((id) => stored.get(id))).toEqual(names);
  });

  it('a refused record is left out of the output (it goes to the rejects), the others keep their order', async () => {
    const input = [{ name: 'ok-1' }, { name: 'bad', status: 'NOT-A-STATUS' }, { name: 'ok-2' }, { name: 'ok-3' }].map((r) => JSON.stringify(r)).join('\n');
    const result = await run(['det', 'create', '--file', '-', '--format', 'ndjson', '--batch-size', '2', '-o', 'ndjson'], input);
    expect(result.code).toBe(9);
    expect(ndjson(result.stdout).map((r) => r.name)).toEqual(['ok-1', 'ok-2', 'ok-3']);
    expect(result.stderr).toMatch(/^created 3, failed 1/m);
  });

  it('remove says which ids were deleted and which were decommissioned because in use', async () => {
    const [free, used, alone] = await create({ name: 'rm-free' }, { name: 'rm-used', inUse: true }, { name: 'rm-alone' });
    const both = await run(['det', 'remove', String(free?.id), String(used?.id), '--yes', '-o', 'json']);
    expect(both.code, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout)).toEqual([
      { id: free?.id, outcome: 'deleted' },
      { id: used?.id, outcome: 'decommissioned (in use)' },
    ]);
    expect(both.stderr).toContain('deleted 1, decommissioned 1 (in use)');
    expect((await run(['det', 'get', String(free?.id)])).code).toBe(4);
    expect(JSON.parse((await run(['det', 'get', String(used?.id), '-o', 'json'])).stdout)).toMatchObject({ status: 'DECOMMISSIONED' });

    const one = await run(['det', 'remove', String(alone?.id), '--yes', '-o', 'json']);
    expect(JSON.parse(one.stdout)).toEqual({ id: alone?.id, outcome: 'deleted' });
    expect(one.stderr).toContain('removed 1 determination: deleted 1');
  });

  it('remove against a service whose answer names no ids reads each id back (one still there, with no profile naming decommissioned: unknown)', async () => {
    const path = /\/api\/v1\/asset-transaction-type-determinations/;
    const service = await startFakeServer([
      { method: 'PUT', path: /\/remove\/bulk$/, reply: { body: { success: true, message: 'done', data: null } } },
      { method: 'GET', path: /\/21$/, reply: { status: 404, body: { title: 'Not Found', status: 404 } } },
      { method: 'GET', path, reply: { body: { success: true, data: { id: 22, status: 'DECOMMISSIONED' } } } },
    ]);
    const config = await tempDir();
    try {
      const result = await pla(['det', 'remove', '21', '22', '--yes', '-o', 'ndjson'], { server: service, configDir: config.path });
      expect(result.exitCode, result.stderr).toBe(9);
      expect(ndjson(result.stdout)).toEqual([{ id: 21, outcome: 'deleted' }]);
      expect(result.stderr).toContain('outcome unknown 1');
      expect(service.requests.map((r) => `${r.method} ${r.path.replace(/.*determinations/, '')}`).sort()).toEqual(['GET /21', 'GET /22', 'PUT /remove/bulk']);
      expect(service.requests[0]?.headers['x-api-key']).toBe(TEST_KEY);
    } finally {
      await service.close();
      await config.remove();
    }
  });
});
