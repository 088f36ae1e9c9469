/**
 * Determinations, settings and transfer tasks over HTTP: envelopes, shape B pages,
 * server-owned fields, upsert, all-or-nothing bulks, decommission and remove,
 * the task lifecycle with cancel, search filter and sort, meta.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const SET = '/api/v1/system-financial-settings';
const TASKS = '/api/v1/batch/mass-inter-company-transfer/tasks';

type Rec = Record<string, unknown> & { id: number };
interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ seed: false });
});
afterAll(async () => {
  await server?.stop();
});

async function ok<T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
  const result = await server.http(method, path, body === undefined ? {} : { body });
  expect(result.status, `${method} ${path}: ${result.text}`).toBe(200);
  return result.body as Envelope<T>;
}

const create = async (prefix: string, fields: Record<string, unknown>) => (await ok<Rec>('POST', prefix, fields)).data;
const read = async (prefix: string, id: number) => server.http('GET', `${prefix}/${id}`);

describe('accounting records', () => {
  it('creates open records with server-owned id and timestamps, in the envelope', async () => {
    const envelope = await ok<Rec>('POST', DET, { code: 'A', nested: { any: ['thing'] }, id: 424242, createdAt: 'client' });
    expect(envelope.success).toBe(true);
    expect(envelope.message).toMatch(/created/);
    const record = envelope.data;
    expect(record.id).not.toBe(424242);
    expect(record.createdAt).not.toBe('client');
    expect(record).toMatchObject({ code: 'A', nested: { any: ['thing'] }, status: 'ACTIVE' });
    expect(Date.parse(String(record.updatedAt))).not.toBeNaN();
    const second = await create(DET, { code: 'B' });
    expect(second.id).toBeGreaterThan(record.id);
    expect(((await read(DET, record.id)).body as Envelope<Rec>).data).toEqual(record);
  });

  it('updates by merging, keeps createdAt, and refuses a body id other than the path id', async () => {
    const record = await create(SET, { key: 'k', value: '1' });
    const updated = (await ok<Rec>('PUT', `${SET}/${record.id}`, { value: '2' })).data;
    expect(updated).toMatchObject({ id: record.id, key: 'k', value: '2', createdAt: record.createdAt });
    expect((await server.http('PUT', `${SET}/${record.id}`, { body: { id: record.id + 1, value: '3' } })).status).toBe(400);
  });

  it('upserts: an existing id updates, a missing or unknown id creates', async () => {
    const record = await create(SET, { key: 'u' });
    const updated = (await ok<Rec>('PUT', `${SET}/createOrUpdate`, { id: record.id, value: 'x' })).data;
    expect(updated).toMatchObject({ id: record.id, key: 'u', value: 'x' });
    const created = (await ok<Rec>('PUT', `${SET}/createOrUpdate`, { id: 987654, key: 'new' })).data;
    expect(created.id).not.toBe(987654);
    const bulk = (await ok<Rec[]>('PUT', `${SET}/createOrUpdate/bulk`, [{ id: record.id, value: 'y' }, { key: 'fresh' }])).data;
    expect(bulk[0]).toMatchObject({ id: record.id, value: 'y' });
    expect(bulk[1]?.id).toBeGreaterThan(created.id);
  });

  it('bulk create, update and delete are all-or-nothing', async () => {
    const made = (await ok<Rec[]>('POST', `${SET}/bulk`, [{ key: 'b1' }, { key: 'b2' }])).data;
    const ids = made.map((r) => r.id);
    const missing = await server.http('PUT', `${SET}/bulk`, {
      body: [
        { id: ids[0], value: 'changed' },
        { id: 777777, value: 'x' },
      ],
    });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('777777');
    expect(((await read(SET, ids[0] as number)).body as Envelope<Rec>).data.value).toBeUndefined();

    expect((await server.http('DELETE', `${SET}/bulk`, { body: [...ids, 777777] })).status).toBe(404);
    expect((await read(SET, ids[1] as number)).status).toBe(200);

    const updated = (
      await ok<Rec[]>(
        'PUT',
        `${SET}/bulk`,
        ids.map((id) => ({ id, value: 'v' })),
      )
    ).data;
    expect(updated.map((r) => r.value)).toEqual(['v', 'v']);
    await ok('DELETE', `${SET}/bulk`, ids);
    for (const id of ids) expect((await read(SET, id)).status).toBe(404);
  });

  it('lists in page shape B with size, totals and multi-field sort', async () => {
    for (const [group, rank] of [
      ['g', 2],
      ['g', 1],
      ['h', 3],
    ] as const)
      await create(DET, { group, rank });
    // Records without `group` sort last ascending, so the three made here lead.
    const page = (await server.http('GET', `${DET}?size=2&page=0&sort=group,asc&sort=rank,desc`)).body as {
      content: Rec[];
      page: { size: number; totalElements: number; totalPages: number; number: number };
    };
    const total = page.page.totalElements;
    expect(page.page).toEqual({ size: 2, totalElements: total, totalPages: Math.ceil(total / 2), number: 0 });
    expect(page.content.map((r) => [r.group, r.rank])).toEqual([
      ['g', 2],
      ['g', 1],
    ]);
    const next = (await server.http('GET', `${DET}?size=2&page=1&sort=group,asc&sort=rank,desc`)).body as { content: Rec[] };
    expect(next.content[0]).toMatchObject({ group: 'h', rank: 3 });
  });

  it('decommissions one, several, by modification date and before now; twice is 409', async () => {
    const [a, b, c] = [await create(DET, { code: 'd1' }), await create(DET, { code: 'd2' }), await create(DET, { code: 'd3' })];
    const one = (await ok<Rec>('PUT', `${DET}/decommission/${a.id}`)).data;
    expect(one).toMatchObject({ id: a.id, status: 'DECOMMISSIONED', decommissionedAt: expect.any(String) as unknown });
    expect((await server.http('PUT', `${DET}/decommission/${a.id}`)).status).toBe(409);
    const bulk = (await ok<Rec[]>('PUT', `${DET}/decommission/bulk`, [b.id])).data;
    expect(bulk.map((r) => r.status)).toEqual(['DECOMMISSIONED']);

    const before = (await ok<Rec[]>('PUT', `${DET}/decommission/modified-before/${encodeURIComponent(String(c.updatedAt))}`)).data;
    expect(before.map((r) => r.id)).not.toContain(c.id);
    const late = new Date(Date.parse(String(c.updatedAt)) + 1).toISOString();
    const upToC = (await ok<Rec[]>('PUT', `${DET}/decommission/modified-before/${late}`)).data;
    expect(upToC.map((r) => r.id)).toContain(c.id);

    const d = await create(DET, { code: 'd4' });
    const now = (await ok<Rec[]>('PUT', `${DET}/decommission/modified-before-now`)).data;
    expect(now.map((r) => r.id)).toContain(d.id);
    expect(((await read(DET, d.id)).body as Envelope<Rec>).data.status).toBe('DECOMMISSIONED');
  });

  it('remove deletes unless in use, then decommissions, and says which', async () => {
    const free = await create(DET, { code: 'free' });
    const used = await create(DET, { code: 'used', inUse: true });
    const one = await ok('PUT', `${DET}/remove/${used.id}`);
    expect(one.message).toMatch(/decommissioned/);
    expect(((await read(DET, used.id)).body as Envelope<Rec>).data.status).toBe('DECOMMISSIONED');

    const other = await create(DET, { code: 'other' });
    expect((await server.http('PUT', `${DET}/remove/bulk`, { body: [free.id, 999999] })).status).toBe(404);
    expect((await read(DET, free.id)).status).toBe(200);
    const inUse = await create(DET, { code: 'in use too', inUse: true });
    const bulk = await ok('PUT', `${DET}/remove/bulk`, [free.id, other.id, inUse.id]);
    expect(bulk.message).toMatch(/deleted/);
    expect(bulk.message).toMatch(/decommissioned/);
    expect(bulk.data).toBeNull();
    expect((await read(DET, free.id)).status).toBe(404);
    expect((await read(DET, other.id)).status).toBe(404);
    expect((await read(DET, used.id)).status).toBe(200);
  });

  it('describes the records seen in the meta schema', async () => {
    const schema = (await server.http('GET', `${DET}/meta`)).body as { title: string; properties: Record<string, { type: unknown }> };
    expect(schema.title).toBe('AssetTransactionTypeDeterminationDto');
    expect(schema.properties.code?.type).toBe('string');
    expect(schema.properties.id?.type).toBe('integer');
  });
});

describe('transfer tasks', () => {
  it('moves PENDING → RUNNING → COMPLETED, refuses other moves with 409, cancels from PENDING or RUNNING only', async () => {
    const task = (await ok<Rec>('PUT', `${TASKS}/createOrUpdate`, { contractNumber: 'LC-1' })).data;
    expect(task.status).toBe('PENDING');
    expect((await server.http('PUT', `${TASKS}/${task.id}`, { body: { status: 'COMPLETED' } })).status).toBe(409);
    expect((await ok<Rec>('PUT', `${TASKS}/${task.id}`, { status: 'RUNNING' })).data).toMatchObject({
      status: 'RUNNING',
      startedAt: expect.any(String) as unknown,
    });
    expect((await ok<Rec>('PUT', `${TASKS}/${task.id}`, { status: 'COMPLETED' })).data.status).toBe('COMPLETED');
    expect((await server.http('POST', `${TASKS}/cancel/${task.id}`)).status).toBe(409);
    expect((await server.http('PUT', `${TASKS}/${task.id}`, { body: { status: 'DONE' } })).status).toBe(400);

    const running = (await ok<Rec>('PUT', `${TASKS}/createOrUpdate`, { status: 'RUNNING' })).data;
    const cancelled = await server.http('POST', `${TASKS}/cancel/${running.id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toBe('');
    expect(((await read(TASKS, running.id)).body as Envelope<Rec>).data.status).toBe('CANCELLED');
    const again = await server.http('POST', `${TASKS}/cancel/${running.id}`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 409, detail: expect.stringContaining('already CANCELLED') });
  });

  it('bulk cancel is all-or-nothing', async () => {
    const tasks = (await ok<Rec[]>('PUT', `${TASKS}/createOrUpdate/bulk`, [{ n: 1 }, { n: 2 }, { n: 3, status: 'FAILED' }])).data;
    const [p1, p2, failed] = tasks.map((t) => t.id) as [number, number, number];
    expect((await server.http('POST', `${TASKS}/cancel/bulk`, { body: [p1, failed] })).status).toBe(409);
    expect((await server.http('POST', `${TASKS}/cancel/bulk`, { body: [p1, 999999] })).status).toBe(404);
    expect(((await read(TASKS, p1)).body as Envelope<Rec>).data.status).toBe('PENDING');
    expect((await server.http('POST', `${TASKS}/cancel/bulk`, { body: [p1, p2] })).status).toBe(200);
    for (const id of [p1, p2]) expect(((await read(TASKS, id)).body as Envelope<Rec>).data.status).toBe('CANCELLED');
  });

  it('searches by equality, any-of and range, sorted by createdAt ascending by default or as asked', async () => {
    const made = (
      await ok<Rec[]>('PUT', `${TASKS}/createOrUpdate/bulk`, [
        { batch: 'S', amount: 10, region: 'north' },
        { batch: 'S', amount: 20, region: 'south' },
        { batch: 'S', amount: 30, region: 'east' },
        { batch: 'S', amount: 40, region: 'north', status: 'RUNNING' },
      ])
    ).data;
    const search = async (filter: unknown, query = '') =>
      (await server.http('POST', `${TASKS}/search${query}`, { body: filter })).body as { content: Rec[]; page: { totalElements: number } };

    expect((await search({ batch: 'S' })).content.map((t) => t.id)).toEqual(made.map((t) => t.id));
    expect((await search({ batch: 'S', region: ['north', 'east'] })).content.map((t) => t.amount)).toEqual([10, 30, 40]);
    expect((await search({ batch: 'S', amount: { from: 15, to: 30 } })).content.map((t) => t.amount)).toEqual([20, 30]);
    expect((await search({ batch: 'S', status: 'RUNNING' })).content.map((t) => t.amount)).toEqual([40]);
    const sorted = await search({ batch: 'S' }, '?sort=region,asc&sort=amount,desc&size=2&page=1');
    // region asc, amount desc: east 30, north 40, north 10, south 20 → page 1 of size 2
    expect(sorted.content.map((t) => t.amount)).toEqual([10, 20]);
    expect(sorted.page.totalElements).toBe(4);
  });
});
