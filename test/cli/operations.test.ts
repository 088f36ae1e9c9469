/**
 * Every one of the 52 operations is reachable from the command line: the built
 * CLI is run against a fake service, and the exact method, path, query, body and
 * key that reached it are checked.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DETERMINATIONS_PREFIX as D, OPERATIONS, SETTINGS_PREFIX as S, TASKS_PREFIX as T } from '../../src/contract/operations.js';
import type { LoggedRequest } from '../support/fake-server.js';
import { TEST_KEY, pla, startContractServer, tempDir } from './support.js';

interface Case {
  op: string;
  args: string[];
  method: string;
  path: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
  /** Ids the CLI reads back after the call (what a remove did to each); no other request is made. */
  readsBack?: number[];
  /** Extra checks on the request and the output. */
  check?: (req: LoggedRequest, out: { stdout: string; stderr: string }) => void;
}

const one = { name: 'alpha' };
const two = [
  { id: 1, name: 'a' },
  { id: 2, name: 'b' },
];
const newTwo = [{ name: 'a' }, { name: 'b' }];
const json = (value: unknown) => JSON.stringify(value);

/** The eleven record operations determinations and settings share, for either tree. */
function recordCases(resource: 'determinations' | 'settings', tree: string, prefix: string): Case[] {
  return [
    {
      op: `${resource}.get`,
      args: [tree, 'get', '7'],
      method: 'GET',
      path: `${prefix}/7`,
      check: (_, out) => expect(JSON.parse(out.stdout)).toMatchObject({ id: 7 }),
    },
    { op: `${resource}.update`, args: [tree, 'update', '7', '--data', json(one)], method: 'PUT', path: `${prefix}/7`, body: one },
    { op: `${resource}.delete`, args: [tree, 'delete', '7', '--yes'], method: 'DELETE', path: `${prefix}/7` },
    { op: `${resource}.upsertBulk`, args: [tree, 'upsert', '--data', json(two)], method: 'PUT', path: `${prefix}/createOrUpdate/bulk`, body: two },
    { op: `${resource}.upsert`, args: [tree, 'upsert', '--data', json(one)], method: 'PUT', path: `${prefix}/createOrUpdate`, body: one },
    { op: `${resource}.updateBulk`, args: [tree, 'update', '--data', json(two)], method: 'PUT', path: `${prefix}/bulk`, body: two },
    // A create names no id (the service assigns them): pla refuses one that does.
    { op: `${resource}.createBulk`, args: [tree, 'create', '--data', json(newTwo)], method: 'POST', path: `${prefix}/bulk`, body: newTwo },
    { op: `${resource}.deleteBulk`, args: [tree, 'delete', '7', '8', '--yes'], method: 'DELETE', path: `${prefix}/bulk`, body: [7, 8] },
    {
      op: `${resource}.list`,
      args: [tree, 'list', '--page', '1', '--size', '5', '--sort', 'name,desc', '--sort', 'id'],
      method: 'GET',
      path: prefix,
      query: { page: '1', size: '5', sort: ['name,desc', 'id'] },
      // The fake holds two records and pages as asked: page 1 of 5 is past them.
      check: (_, out) => expect(JSON.parse(out.stdout)).toEqual([]),
    },
    { op: `${resource}.create`, args: [tree, 'create', '--data', json(one)], method: 'POST', path: prefix, body: one },
    { op: `${resource}.meta`, args: [tree, 'meta'], method: 'GET', path: `${prefix}/meta` },
  ];
}

const imageFile = { path: '' };

const CASES: Case[] = [
  ...recordCases('determinations', 'determinations', D),
  // The fake's answer names no ids, so the CLI reads each id back to say what the remove did.
  { op: 'determinations.remove', args: ['det', 'remove', '7', '--yes'], method: 'PUT', path: `${D}/remove/7`, readsBack: [7] },
  {
    op: 'determinations.removeBulk',
    args: ['det', 'remove', '--ids', '7,8', '--yes'],
    method: 'PUT',
    path: `${D}/remove/bulk`,
    body: [7, 8],
    readsBack: [7, 8],
  },
  { op: 'determinations.decommission', args: ['det', 'decommission', '7', '--yes'], method: 'PUT', path: `${D}/decommission/7` },
  {
    op: 'determinations.decommissionModifiedBefore',
    args: ['det', 'decommission', '--modified-before', '2024-01-31', '--yes'],
    method: 'PUT',
    path: `${D}/decommission/modified-before/${encodeURIComponent('2024-01-31T00:00:00.000Z')}`,
  },
  {
    op: 'determinations.decommissionBeforeNow',
    args: ['det', 'decommission', '--before-now', '--yes'],
    method: 'PUT',
    path: `${D}/decommission/modified-before-now`,
  },
  {
    op: 'determinations.decommissionBulk',
    args: ['det', 'decommission', '7', '8', '9', '--yes'],
    method: 'PUT',
    path: `${D}/decommission/bulk`,
    body: [7, 8, 9],
  },
  ...recordCases('settings', 'set', S),
  { op: 'tasks.get', args: ['tasks', 'get', '3'], method: 'GET', path: `${T}/3` },
  { op: 'tasks.update', args: ['tasks', 'update', '3', '--data', json({ status: 'RUNNING' })], method: 'PUT', path: `${T}/3`, body: { status: 'RUNNING' } },
  { op: 'tasks.upsertBulk', args: ['tasks', 'upsert', '--data', json(two)], method: 'PUT', path: `${T}/createOrUpdate/bulk`, body: two },
  { op: 'tasks.upsert', args: ['tasks', 'upsert', '--data', json(one)], method: 'PUT', path: `${T}/createOrUpdate`, body: one },
  { op: 'tasks.updateBulk', args: ['tasks', 'update', '--data', json(two)], method: 'PUT', path: `${T}/bulk`, body: two },
  {
    op: 'tasks.search',
    args: ['tasks', 'search', '--filter', json({ status: ['PENDING'] }), '--page', '0', '--size', '10', '--sort', 'createdAt,desc'],
    method: 'POST',
    path: `${T}/search`,
    query: { page: '0', size: '10', sort: 'createdAt,desc' },
    body: { status: ['PENDING'] },
  },
  { op: 'tasks.cancel', args: ['tasks', 'cancel', '3', '--yes'], method: 'POST', path: `${T}/cancel/3` },
  { op: 'tasks.cancelBulk', args: ['tasks', 'cancel', '3', '4', '--yes'], method: 'POST', path: `${T}/cancel/bulk`, body: [3, 4] },
  { op: 'tasks.list', args: ['tasks', 'list'], method: 'GET', path: T },
  { op: 'notifications.markRead', args: ['notif', 'read', '101'], method: 'POST', path: '/api/notifications/101/read' },
  {
    op: 'notifications.workOrder',
    args: ['notif', 'work-order', '--data', json({ workOrder: { id: 'WO-1' } })],
    method: 'POST',
    path: '/api/notifications/workorder',
    body: { workOrder: { id: 'WO-1' } },
  },
  {
    op: 'notifications.countByType',
    args: ['notif', 'count', 'ana', '--by-type'],
    method: 'GET',
    path: '/api/notifications/ana/count-by-type',
    check: (_, out) => expect(JSON.parse(out.stdout)).toEqual({ count: 3 }),
  },
  {
    op: 'notifications.list',
    args: ['notif', 'list', 'ana', '--page', '0', '--size', '10'],
    method: 'GET',
    path: '/api/notifications/ana',
    query: { page: '0', size: '10' },
  },
  { op: 'notifications.listMobile', args: ['notif', 'list', 'ana', '--mobile'], method: 'GET', path: '/api/notifications/ana/for-mobile' },
  { op: 'notifications.countMobile', args: ['notif', 'count', 'ana', '--mobile'], method: 'GET', path: '/api/notifications/ana/for-mobile/count' },
  { op: 'notifications.count', args: ['notif', 'count', 'ana', '--unread'], method: 'GET', path: '/api/notifications/ana/count', query: { unread: 'true' } },
  { op: 'notifications.deleteAll', args: ['notif', 'clear', 'ana', '--yes'], method: 'DELETE', path: '/api/notifications/ana/all' },
  { op: 'notifications.delete', args: ['notif', 'delete', '101', '--yes'], method: 'DELETE', path: '/api/notifications/101' },
  {
    op: 'notifications.create',
    args: ['notif', 'create', '--data', json({ forUserId: 'ana', title: 'Lease renewed' })],
    method: 'POST',
    path: '/api/notifications',
    body: { forUserId: 'ana', title: 'Lease renewed' },
  },
  {
    op: 'email-notifications.create',
    args: ['notif', 'email', 'send', '--data', json({ forUserEmail: 'ana@example.com', templateName: 'lease-expiry' })],
    method: 'POST',
    path: '/api/email-notifications',
    body: { forUserEmail: 'ana@example.com', templateName: 'lease-expiry' },
  },
  { op: 'email-notifications.delete', args: ['notif', 'email', 'delete', '31', '--yes'], method: 'DELETE', path: '/api/email-notifications/31' },
  {
    op: 'images.upload',
    args: ['images', 'upload', '<image>', '--service', 'portfolio'],
    method: 'POST',
    path: '/api/images',
    check: (req, out) => {
      expect(String(req.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
      expect(req.bodyText).toContain('name="file"');
      expect(req.bodyText).toContain('PNGBYTES');
      expect(req.bodyText).toContain('"service":"portfolio"');
      expect(req.bodyText).toContain('"name":"front.png"');
      expect(req.bodyText).toContain('"type":"image/png"');
      expect(JSON.parse(out.stdout)).toEqual({ id: 55, location: '/api/images/55', name: 'front.png' });
    },
  },
  { op: 'images.delete', args: ['images', 'delete', '5', '--yes'], method: 'DELETE', path: '/api/images/5' },
  { op: 'topics.list', args: ['topics', 'list', 'portfolio'], method: 'GET', path: '/api/topics/portfolio' },
];

let config: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  config = await tempDir();
  imageFile.path = join(config.path, 'front.png');
  await writeFile(imageFile.path, 'PNGBYTES');
});

afterAll(async () => {
  await config.remove();
});

describe('every operation through the CLI', () => {
  it('has a case for each of the 52 operations of the contract', () => {
    expect(CASES.map((c) => c.op).sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
  });

  for (const c of CASES) {
    it.concurrent(`${c.op}: pla ${c.args.join(' ')}`, async () => {
      const server = await startContractServer();
      try {
        const args = c.args.map((a) => (a === '<image>' ? imageFile.path : a));
        const run = await pla([...args, '-o', 'json'], { server, configDir: config.path });
        expect(run.stderr).not.toContain('error:');
        expect(run.exitCode).toBe(0);
        // A page past the first, without a wire profile: two reads of one record first find the page base.
        const probes = c.query?.page !== undefined && c.query.page !== '0' ? server.requests.splice(0, 2) : [];
        expect(probes.map((r) => [r.query.page, r.query.size])).toEqual(
          probes.length
            ? [
                ['0', '1'],
                ['1', '1'],
              ]
            : [],
        );
        const [req, ...readBack] = server.requests;
        expect(readBack.map((r) => `${r.method} ${r.path}`).sort()).toEqual((c.readsBack ?? []).map((id) => `GET ${D}/${id}`));
        if (!req) throw new Error('no request');
        expect(`${req.method} ${req.path}`).toBe(`${c.method} ${c.path}`);
        expect(req.query).toEqual(c.query ?? {});
        if (c.body !== undefined) expect(req.body).toEqual(c.body);
        else if (c.op !== 'images.upload') expect(req.bodyText).toBe('');
        expect(req.headers['x-api-key']).toBe(TEST_KEY);
        c.check?.(req, run);
      } finally {
        await server.close();
      }
    });
  }
});
