/**
 * The local stub refuses what the service would: the declared fields of accounting
 * records (those its seed data uses) are typed, a wrong type is the Problem Details
 * 400 naming each field path, and nothing is stored; `--lenient` accepts anything.
 * Through the built CLI, and read back from the server afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';

let strict: LocalServer;
let lenient: LocalServer;

beforeAll(async () => {
  [strict, lenient] = await Promise.all([startLocalServer(), startLocalServer({ args: ['--lenient'] })]);
});

afterAll(async () => {
  await Promise.all([strict?.stop(), lenient?.stop()]);
});

async function count(server: LocalServer, path: string): Promise<number> {
  const page = (await server.http('GET', `${path}?size=1`)).body as { page: { totalElements: number } };
  return page.page.totalElements;
}

describe('declared field types', () => {
  it('a wrong type is refused with a 400 naming each field path, and nothing is stored', async () => {
    const before = await count(strict, DET);
    const result = await strict.pla(['det', 'create', '--data', JSON.stringify({ code: 'ATD-X', name: 12345, inUse: 'maybe' }), '-o', 'json', '--verbose']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/^error: 400 .*body\.name: /m);
    expect(result.stderr).toContain('body.inUse');
    expect(await count(strict, DET)).toBe(before);

    const bulk = await strict.http('PUT', '/api/v1/batch/mass-inter-company-transfer/tasks/createOrUpdate/bulk', {
      body: [{ contractNumber: 'LC-1' }, { contractNumber: 'LC-2', assetCount: 'ten', startedAt: 'yesterday' }],
    });
    expect(bulk.status).toBe(400);
    expect(bulk.headers['content-type']).toMatch(/^application\/problem\+json/);
    const paths = (bulk.body as { errors: Array<{ path: string }> }).errors.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['body[1].assetCount', 'body[1].startedAt']));
    expect(paths).not.toContain('body[0].contractNumber');

    const setting = await strict.pla(['settings', 'create', '--data', JSON.stringify({ key: 'x', value: 5 }), '-o', 'json']);
    expect(setting.exitCode).toBe(5);
    expect(setting.stderr).toContain('body.value');
  });

  it('right types, null and fields of its own are kept as sent', async () => {
    const created = await strict.pla([
      'det',
      'create',
      '--data',
      JSON.stringify({ code: 'ATD-Y', name: 'Yes', inUse: false, companyCode: null, colour: 7 }),
      '-o',
      'json',
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    const record = JSON.parse(created.stdout) as { id: number };
    const stored = (await strict.http('GET', `${DET}/${record.id}`)).body as { data: Record<string, unknown> };
    expect(stored.data).toMatchObject({ code: 'ATD-Y', name: 'Yes', inUse: false, companyCode: null, colour: 7 });
  });

  it('the seed data passes its own declared types: every seeded record upserts back unchanged', async () => {
    for (const resource of ['determinations', 'settings', 'tasks']) {
      const listed = await strict.pla([resource, 'list', '--all', '-o', 'json']);
      expect(listed.exitCode, listed.stderr).toBe(0);
      const records = (JSON.parse(listed.stdout) as Array<Record<string, unknown>>).filter((r) => !String(r.code ?? '').startsWith('ATD-Y'));
      expect(records.length).toBeGreaterThan(0);
      const upsert = await strict.pla([resource, 'upsert', '--file', '-', '--format', 'json', '-o', 'json'], { input: JSON.stringify(records) });
      expect(upsert.exitCode, upsert.stderr).toBe(0);
    }
  });

  it('--lenient accepts any type, and says so when it starts', async () => {
    const result = await lenient.pla(['det', 'create', '--data', JSON.stringify({ code: 'ATD-X', name: 12345, inUse: 'maybe' }), '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const { id } = JSON.parse(result.stdout) as { id: number };
    const stored = (await lenient.http('GET', `${DET}/${id}`)).body as { data: Record<string, unknown> };
    expect(stored.data).toMatchObject({ name: 12345, inUse: 'maybe' });
    expect(lenient.stderr()).toContain('--lenient');
    expect(strict.stderr()).not.toContain('--lenient');
  });
});
