/**
 * Every one of the 52 operations, through the built CLI against the local server,
 * each checked by reading its effect back. The CLI runs with its own key, and the
 * server's request log (mapped through the router) proves that together the
 * commands reached every operation of the contract.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { createRouter } from '../../src/server/routes.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const SET = '/api/v1/system-financial-settings';
const TASKS = '/api/v1/batch/mass-inter-company-transfer/tasks';

type Rec = Record<string, unknown> & { id: number };

let server: LocalServer;
let cliKey: string;

beforeAll(async () => {
  server = await startLocalServer();
  const created = await server.http('POST', '/_admin/keys', { body: { name: 'cli-e2e', permissions: ['*'] } });
  cliKey = (created.body as { data: { secret: string } }).data.secret;
});
afterAll(async () => {
  await server?.stop();
});

/** Runs pla with the e2e key; expects success and returns parsed JSON stdout (or the text). */
async function pla(args: string[], input?: string): Promise<unknown> {
  const result = await server.pla([...args, '-o', 'json'], { env: { PLA_API_KEY: cliKey }, ...(input !== undefined ? { input } : {}) });
  expect(result.exitCode, `pla ${args.join(' ')}\n${result.stderr}`).toBe(0);
  const out = result.stdout.trim();
  try {
    return out ? (JSON.parse(out) as unknown) : undefined;
  } catch {
    return out;
  }
}

async function get(path: string): Promise<{ status: number; data: Rec }> {
  const result = await server.http('GET', path);
  return { status: result.status, data: (result.body as { data: Rec }).data };
}

async function make(prefix: string, records: Array<Record<string, unknown>>): Promise<Rec[]> {
  const result = await server.http('PUT', `${prefix}/createOrUpdate/bulk`, { body: records });
  expect(result.status).toBe(200);
  return (result.body as { data: Rec[] }).data;
}

describe.each([
  ['determinations', DET],
  ['settings', SET],
])('%s through the CLI', (tree, prefix) => {
  it('create, get, list, meta', async () => {
    const one = (await pla([tree, 'create', '--data', '{"code":"c-one"}'])) as Rec;
    expect((await get(`${prefix}/${one.id}`)).data.code).toBe('c-one');
    await pla([tree, 'create', '--data', '[{"code":"c-two"},{"code":"c-three"}]']);
    const listed = (await pla([tree, 'list', '--size', '100'])) as Rec[];
    expect(listed.map((r) => r.code)).toEqual(expect.arrayContaining(['c-one', 'c-two', 'c-three']));
    expect(((await pla([tree, 'get', String(one.id)])) as Rec).code).toBe('c-one');
    expect(JSON.stringify(await pla([tree, 'meta']))).toContain('code');
  });

  it('update, upsert (single and bulk), delete (single and bulk)', async () => {
    const [a, b] = await make(prefix, [{ code: 'u-a' }, { code: 'u-b' }]);
    await pla([tree, 'update', String(a?.id), '--data', '{"note":"one"}']);
    expect((await get(`${prefix}/${a?.id}`)).data.note).toBe('one');
    const file = join(server.dataDir, `${tree}-update.json`);
    await writeFile(
      file,
      JSON.stringify([
        { id: a?.id, note: 'bulk' },
        { id: b?.id, note: 'bulk' },
      ]),
    );
    await pla([tree, 'update', '--file', file]);
    expect((await get(`${prefix}/${b?.id}`)).data.note).toBe('bulk');

    await pla([tree, 'upsert', '--data', JSON.stringify({ id: a?.id, note: 'upserted' })]);
    expect((await get(`${prefix}/${a?.id}`)).data.note).toBe('upserted');
    await pla([tree, 'upsert', '--data', JSON.stringify([{ id: b?.id, note: 'ub' }, { code: 'u-new' }])]);
    expect((await get(`${prefix}/${b?.id}`)).data.note).toBe('ub');

    await pla([tree, 'delete', String(a?.id), '--yes']);
    expect((await get(`${prefix}/${a?.id}`)).status).toBe(404);
    const [c, d] = await make(prefix, [{ code: 'd-c' }, { code: 'd-d' }]);
    await pla([tree, 'delete', String(b?.id), String(c?.id), String(d?.id), '--yes']);
    for (const id of [b?.id, c?.id, d?.id]) expect((await get(`${prefix}/${id}`)).status).toBe(404);
  });
});

describe('determination lifecycle through the CLI', () => {
  it('decommission one, several, modified before a date, before now', async () => {
    const [a, b, c] = await make(DET, [{ code: 'l-a' }, { code: 'l-b' }, { code: 'l-c' }]);
    await pla(['determinations', 'decommission', String(a?.id), '--yes']);
    expect((await get(`${DET}/${a?.id}`)).data.status).toBe('DECOMMISSIONED');
    await pla(['determinations', 'decommission', String(b?.id), String(c?.id), '--yes']);
    expect((await get(`${DET}/${c?.id}`)).data.status).toBe('DECOMMISSIONED');

    const [d] = await make(DET, [{ code: 'l-d' }]);
    await pla(['determinations', 'decommission', '--modified-before', '2000-01-01', '--yes']);
    expect((await get(`${DET}/${d?.id}`)).data.status).toBe('ACTIVE');
    await pla(['determinations', 'decommission', '--modified-before', new Date(Date.now() + 60_000).toISOString(), '--yes']);
    expect((await get(`${DET}/${d?.id}`)).data.status).toBe('DECOMMISSIONED');
    const [e] = await make(DET, [{ code: 'l-e' }]);
    await pla(['determinations', 'decommission', '--before-now', '--yes']);
    expect((await get(`${DET}/${e?.id}`)).data.status).toBe('DECOMMISSIONED');
  });

  it('remove one and several: deleted unless in use', async () => {
    const [free, used, other] = await make(DET, [{ code: 'r-free' }, { code: 'r-used', inUse: true }, { code: 'r-other' }]);
    await pla(['determinations', 'remove', String(free?.id), '--yes']);
    expect((await get(`${DET}/${free?.id}`)).status).toBe(404);
    await pla(['determinations', 'remove', String(used?.id), String(other?.id), '--yes']);
    expect((await get(`${DET}/${used?.id}`)).data.status).toBe('DECOMMISSIONED');
    expect((await get(`${DET}/${other?.id}`)).status).toBe(404);
  });
});

describe('tasks through the CLI', () => {
  it('get, list, update (single, bulk), upsert (single, bulk), search, cancel (single, bulk)', async () => {
    const [t1, t2, t3] = await make(TASKS, [{ batch: 'cli' }, { batch: 'cli' }, { batch: 'cli' }]);
    expect(((await pla(['tasks', 'get', String(t1?.id)])) as Rec).batch).toBe('cli');
    expect(((await pla(['tasks', 'list'])) as Rec[]).length).toBeGreaterThanOrEqual(3);
    await pla(['tasks', 'update', String(t1?.id), '--data', '{"status":"RUNNING"}']);
    expect((await get(`${TASKS}/${t1?.id}`)).data.status).toBe('RUNNING');
    const file = join(server.dataDir, 'tasks-update.json');
    await writeFile(
      file,
      JSON.stringify([
        { id: t2?.id, note: 'x' },
        { id: t3?.id, note: 'x' },
      ]),
    );
    await pla(['tasks', 'update', '--file', file]);
    expect((await get(`${TASKS}/${t3?.id}`)).data.note).toBe('x');
    const up = (await pla(['tasks', 'upsert', '--data', '{"batch":"cli-up"}'])) as Rec;
    expect((await get(`${TASKS}/${up.id}`)).data.status).toBe('PENDING');
    await pla(['tasks', 'upsert', '--data', JSON.stringify([{ id: up.id, note: 'y' }, { batch: 'cli-up' }])]);
    expect((await get(`${TASKS}/${up.id}`)).data.note).toBe('y');

    const found = (await pla(['tasks', 'search', '--filter', '{"batch":"cli","status":["RUNNING"]}'])) as Rec[];
    expect(found.map((t) => t.id)).toEqual([t1?.id]);

    await pla(['tasks', 'cancel', String(t1?.id), '--yes']);
    expect((await get(`${TASKS}/${t1?.id}`)).data.status).toBe('CANCELLED');
    await pla(['tasks', 'cancel', String(t2?.id), String(t3?.id), '--yes']);
    expect((await get(`${TASKS}/${t2?.id}`)).data.status).toBe('CANCELLED');
  });
});

describe('notification side through the CLI', () => {
  const count = async (path: string) => ((await server.http('GET', path)).body as { count: number }).count;

  it('create, list (web and mobile), count (all, unread, by type, mobile), read, delete, clear, work order', async () => {
    const created = (await pla(['notifications', 'create', '--data', '{"forUserId":"zoe","type":"INFO","service":"mobile","title":"hello"}'])) as Rec | Rec[];
    const id = (Array.isArray(created) ? created[0] : created)?.id as number;
    await pla(['notifications', 'create', '--data', '{"forUserId":"zoe","type":"INFO","title":"web"}']);
    expect(await count('/api/notifications/zoe/count')).toBe(2);

    expect(((await pla(['notifications', 'list', 'zoe'])) as Rec[]).map((n) => n.title)).toEqual(['web', 'hello']);
    expect(((await pla(['notifications', 'list', 'zoe', '--mobile'])) as Rec[]).map((n) => n.title)).toEqual(['hello']);
    expect(await pla(['notifications', 'count', 'zoe'])).toEqual({ count: 2 });
    expect(await pla(['notifications', 'count', 'zoe', '--unread'])).toEqual({ count: 2 });
    expect(await pla(['notifications', 'count', 'zoe', '--by-type'])).toEqual({ INFO: 2 });
    expect(await pla(['notifications', 'count', 'zoe', '--mobile'])).toEqual({ count: 1 });

    await pla(['notifications', 'read', String(id)]);
    expect(await count('/api/notifications/zoe/count?unread=true')).toBe(1);
    await pla(['notifications', 'delete', String(id), '--yes']);
    expect(await count('/api/notifications/zoe/count')).toBe(1);
    await pla(['notifications', 'clear', 'zoe', '--yes']);
    expect(await count('/api/notifications/zoe/count')).toBe(0);

    await pla(['notifications', 'work-order', '--data', '{"WO-42":{"forUserId":"zoe","description":"Replace the boiler"}}']);
    expect(await count('/api/notifications/zoe/count')).toBe(1);
  });

  it('email send', async () => {
    const sent = (await pla(['notifications', 'email', 'send', '--data', '{"forUserEmail":"zoe@example.com","title":"Hi","description":"There"}'])) as
      Rec | Rec[];
    const email = (Array.isArray(sent) ? sent[0] : sent) as Rec;
    expect(email.sent).toBe(true);
    const outbox = await readdir(join(server.dataDir, 'outbox'));
    expect(outbox).toContain(`${String(email.id).padStart(6, '0')}.eml`);
  });

  it('email delete', async () => {
    const created = await server.http('POST', '/api/email-notifications', { body: { forUserEmail: 'yan@example.com', title: 'Bye' } });
    const id = (created.body as Rec[])[0]?.id as number;
    await pla(['notifications', 'email', 'delete', String(id), '--yes']);
    expect((await server.http('DELETE', `/api/email-notifications/${id}`)).status).toBe(404);
  });

  it('images upload and delete, topics list', async () => {
    const file = join(server.dataDir, 'photo.png');
    await writeFile(file, Buffer.from('fake png bytes'));
    const uploaded = await server.pla(['images', 'upload', file, '--service', 'portfolio', '-o', 'json'], { env: { PLA_API_KEY: cliKey } });
    expect(uploaded.exitCode, uploaded.stderr).toBe(0);
    const id = /\/api\/images\/(\d+)/.exec(uploaded.stdout + uploaded.stderr)?.[1] ?? /"id":\s*(\d+)/.exec(uploaded.stdout)?.[1];
    expect(id).toBeDefined();
    await pla(['images', 'delete', String(id), '--yes']);
    expect((await server.http('DELETE', `/api/images/${id}`)).status).toBe(404);

    const topics = (await pla(['topics', 'list', 'lease', '--lang', 'de'])) as Rec[];
    expect(topics.map((t) => t.code)).toEqual(['LEASE_APPROVED', 'LEASE_EXPIRING']);
    expect(topics[0]?.caption).toBe('Leasingvertrag genehmigt');
  });
});

describe('coverage', () => {
  it('the CLI reached every one of the 52 operations', async () => {
    const log = (await server.http('GET', '/_admin/requests?limit=500')).body as {
      data: Array<{ method: string; path: string; key?: string; status: number }>;
    };
    const router = createRouter();
    const reached = new Set<string>();
    for (const entry of log.data) {
      if (!entry.key?.startsWith('cli-e2e') || entry.status >= 400) continue;
      const match = router.match(entry.method, new URL(entry.path, 'http://x').pathname);
      if ('target' in match && match.target.kind === 'operation') reached.add(match.target.op.id);
    }
    expect(OPERATIONS.map((op) => op.id).filter((id) => !reached.has(id))).toEqual([]);
  });
});
