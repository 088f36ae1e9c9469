/**
 * Query and filter like the peers, through the built CLI on a real local server:
 * `--query` (JMESPath) on lists, records and counts; filter flags on lists, sent
 * as the service's search where it has one (tasks: the request log shows it) and
 * filtered while streaming elsewhere; an unknown `--fields` name is an error with
 * a suggestion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer();
});

afterAll(async () => {
  await server?.stop();
});

const json = async (args: string[]) => {
  const result = await server.pla([...args, '-o', 'json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as unknown;
};

describe('--query', () => {
  it('applies JMESPath to lists, records and counts', async () => {
    expect(await json(['det', 'list', '--query', "[?status=='ACTIVE'].code"])).toEqual(['ATD-ACQ', 'ATD-RET', 'ATD-TRF', 'ATD-REV', 'ATD-IMP']);
    expect(await json(['det', 'get', '1', '--query', '{code: code, inUse: inUse}'])).toEqual({ code: 'ATD-ACQ', inUse: true });
    expect(await json(['notif', 'count', 'alice', '--query', 'count'])).toBe(4);
    const table = await server.pla(['det', 'list', '--query', '[].{id: id, code: code}', '-o', 'csv']);
    expect(table.stdout.split('\n').slice(0, 2)).toEqual(['id,code', '1,ATD-ACQ']);
    const text = await server.pla(['det', 'get', '2', '--query', 'name', '-o', 'table']);
    expect(text.stdout).toBe('Retirement');
  });

  it('a malformed expression is refused before anything is sent', async () => {
    const before = (await json(['server', 'log', '--limit', '500'])) as unknown[];
    const result = await server.pla(['det', 'create', '--data', '{"code":"Q-1"}', '--query', '[?']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: --query \[\?: /m);
    expect(result.stderr).toMatch(/^hint: a JMESPath expression/m);
    const after = (await json(['server', 'log', '--limit', '500'])) as Array<{ method: string }>;
    expect(after.filter((r) => r.method === 'POST').length).toBe((before as Array<{ method: string }>).filter((r) => r.method === 'POST').length);
    expect(((await json(['det', 'list', '--all'])) as Array<{ code: string }>).map((r) => r.code)).not.toContain('Q-1');
    const api = await server.pla(['api', 'GET', '/api/v1/asset-transaction-type-determinations', '--query', 'page=0']);
    expect(api.exitCode).toBe(2);
    expect(api.stderr).toContain('--param key=value');
  });
});

describe('--fields', () => {
  it('an unknown name is an error with a suggestion', async () => {
    const result = await server.pla(['det', 'list', '--fields', 'id,nmae']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: unknown field in --fields: nmae\nhint: did you mean name\?$/m);
    expect(result.stdout).toBe('');
  });
});

describe('filter flags', () => {
  it('tasks list --status is sent as the service search', async () => {
    const tasks = (await json(['tasks', 'list', '--status', 'pending,running'])) as Array<{ status: string }>;
    expect(tasks.map((t) => t.status).sort()).toEqual(['PENDING', 'PENDING', 'RUNNING']);
    const log = (await server.http('GET', '/_admin/requests?limit=5')).body as { data: Array<{ method: string; path: string; body?: string }> };
    const search = log.data.filter((r) => r.path.startsWith('/api/v1/batch/mass-inter-company-transfer/tasks/search')).at(-1);
    expect(search).toMatchObject({ method: 'POST', body: '{"status":["PENDING","RUNNING"]}' });
  });

  it('determinations by --status and --company, notifications by --read/--unread, filtered while streaming', async () => {
    const dets = (await json(['det', 'list', '--status', 'ACTIVE', '--company', '1000,3000', '--all', '--size', '2'])) as Array<{ code: string }>;
    expect(dets.map((d) => d.code)).toEqual(['ATD-ACQ', 'ATD-RET', 'ATD-IMP']);
    const page = (await json(['det', 'list', '--status', 'ACTIVE', '--company', '1000,3000', '--size', '2'])) as Array<{ code: string }>;
    expect(page.map((d) => d.code)).toEqual(['ATD-ACQ', 'ATD-RET']);
    const limited = (await json(['det', 'list', '--status', 'ACTIVE', '--max-items', '2', '--size', '1'])) as unknown[];
    expect(limited).toHaveLength(2);
    const unread = (await json(['notif', 'list', 'alice', '--unread'])) as Array<{ read: boolean }>;
    expect(unread.length).toBe(2);
    expect(unread.every((n) => n.read === false)).toBe(true);
    const read = (await json(['notif', 'list', 'alice', '--read'])) as Array<{ read: boolean }>;
    expect(read.length).toBe(2);
    const both = await server.pla(['notif', 'list', 'alice', '--read', '--unread']);
    expect(both.exitCode).toBe(2);
  });
});
