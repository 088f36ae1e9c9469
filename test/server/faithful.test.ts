/**
 * Issue 9 items 1–6: where the local server now answers as the interface document
 * says (or as a typical Spring/Jackson service reads it) instead of its own way.
 * Each case goes through the real server over HTTP, and through the CLI where the
 * CLI is involved.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const SETTINGS = '/api/v1/system-financial-settings';
const TASKS = '/api/v1/batch/mass-inter-company-transfer/tasks';
const INT64_MAX = '9223372036854775807';

type Rec = Record<string, unknown> & { id: number };

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
});

const data = (body: unknown) => (body as { data: Rec }).data;
const totalOf = async (path: string) => ((await server.http('GET', `${path}?size=1`)).body as { page: { totalElements: number } }).page.totalElements;

describe('settings POST creates or updates (spec 4.2)', () => {
  it('a body whose id names an existing setting updates it; no duplicate appears', async () => {
    const created = data((await server.http('POST', SETTINGS, { body: { code: 'VAT', rate: 19 } })).body);
    const before = await totalOf(SETTINGS);
    const again = await server.http('POST', SETTINGS, { body: { id: created.id, rate: 21 } });
    expect(again.status).toBe(200);
    expect(data(again.body)).toMatchObject({ id: created.id, code: 'VAT', rate: 21 });
    expect(await totalOf(SETTINGS)).toBe(before);
    expect(data((await server.http('GET', `${SETTINGS}/${created.id}`)).body)).toMatchObject({ rate: 21 });
  });

  it('a body without an id (or naming no setting) creates one', async () => {
    const before = await totalOf(SETTINGS);
    const created = data((await server.http('POST', SETTINGS, { body: { id: 987654, code: 'NEW' } })).body);
    expect(created.id).not.toBe(987654);
    expect(await totalOf(SETTINGS)).toBe(before + 1);
  });
});

describe('page, size and sort on an endpoint that does not page: 404 (spec 7)', () => {
  it.each([
    ['GET', '/api/topics/lease?page=0'],
    ['GET', `${DET}/1?page=0`],
    ['GET', `${TASKS}/1?size=5`],
    ['GET', '/api/notifications/alice/count?sort=id'],
    ['PUT', `${DET}/decommission/modified-before-now?page=0`],
  ])('%s %s', async (method, path) => {
    const result = await server.http(method, path);
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ type: 'urn:pla:problem:no-pagination' });
    expect((result.body as { detail: string }).detail).toContain('does not support pagination');
  });

  it('the same endpoints without those parameters still answer', async () => {
    expect((await server.http('GET', '/api/topics/lease')).status).toBe(200);
    expect((await server.http('GET', `${DET}/1`)).status).toBe(200);
  });
});

describe('work orders are free-form objects (spec 2.8)', () => {
  it("the CLI's own --help example is accepted, and a work order naming no user goes to 'workorder'", async () => {
    const help = await server.pla(['notifications', 'work-order', '--help']);
    const example = /pla notifications work-order --data '(.+)'/.exec(help.stdout)?.[1];
    expect(example).toBeDefined();
    const result = await server.pla(['notifications', 'work-order', '--data', example as string]);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.exitCode).toBe(0);
    const page = (await server.http('GET', '/api/notifications/workorder')).body as { content: Rec[] };
    expect(page.content[0]).toMatchObject({ forUserId: 'workorder', type: 'WORK_ORDER', title: 'Work order workOrder created' });
  });

  it('any object values are accepted; forUserId, when given, names the user', async () => {
    const result = await server.http('POST', '/api/notifications/workorder', {
      body: { 'WO-9': { forUserId: 'hank', lines: [1, 2], meta: { a: 1 } }, 'WO-10': {} },
    });
    expect([result.status, result.text]).toEqual([200, '']);
    expect(((await server.http('GET', '/api/notifications/hank')).body as { content: Rec[] }).content[0]).toMatchObject({ title: 'Work order WO-9 created' });
    expect((await server.http('POST', '/api/notifications/workorder', { body: {} })).status).toBe(200);
  });
});

describe('int64 ids (spec 2.9, 4.1)', () => {
  it.each([
    ['GET', `${DET}/${INT64_MAX}`],
    ['DELETE', `${SETTINGS}/${INT64_MAX}`],
    ['PUT', `${DET}/decommission/9007199254740993`],
    ['POST', `${TASKS}/cancel/${INT64_MAX}`],
    ['DELETE', `/api/images/${INT64_MAX}`],
    ['DELETE', `/api/email-notifications/0`],
  ])('%s %s is a 404 naming the id exactly', async (method, path) => {
    const result = await server.http(method, path);
    expect(result.status).toBe(404);
    expect((result.body as { detail: string }).detail).toContain(path.split('/').pop());
  });

  it('past int64 is a 400 naming the limit', async () => {
    const result = await server.http('GET', `${DET}/9223372036854775808`);
    expect(result.status).toBe(400);
    expect(result.text).toContain(INT64_MAX);
  });

  it('ids in bodies keep every digit: a 404 names exactly the ids sent, nothing is deleted', async () => {
    const before = await totalOf(DET);
    const result = await server.http('DELETE', `${DET}/bulk`, { body: `[1, ${INT64_MAX}, 9007199254740993]` });
    expect(result.status).toBe(404);
    const detail = (result.body as { detail: string }).detail;
    expect(detail).toContain(INT64_MAX);
    expect(detail).toContain('9007199254740993');
    expect(detail).not.toMatch(/\b1\b/);
    expect(await totalOf(DET)).toBe(before);
    const update = await server.http('PUT', `${DET}/bulk`, { body: `[{"id": ${INT64_MAX}, "code": "x"}]` });
    expect(update.status).toBe(404);
    expect(update.text).toContain(INT64_MAX);
  });

  it('a long number in a record that is not an id is stored as JSON.parse reads it', async () => {
    const created = data((await server.http('POST', DET, { body: '{"code": "BIG", "amount": 12345678901234567890}' })).body);
    // eslint-disable-next-line no-loss-of-precision -- the number as JSON.parse reads it is the point
    expect(created.amount).toBe(12345678901234567890);
  });

  it('the CLI sends an int64 id as typed and reports the 404', async () => {
    const result = await server.pla(['determinations', 'get', INT64_MAX]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(INT64_MAX);
  });

  it('the CLI sends int64 ids in a bulk body exactly (no rounding to …808), and keeps them exact in rejects', async () => {
    const rejects = join(server.dataDir, 'rejects.ndjson');
    const result = await server.pla(['determinations', 'delete', '2', INT64_MAX, '--yes', '--rejects', rejects]);
    expect(result.exitCode).toBe(9);
    const text = await readFile(rejects, 'utf8');
    expect(text).toContain(INT64_MAX);
    expect(text).not.toContain('9223372036854775808');
    expect(text).toMatch(/not found/);
  });

  it('the CLI sends a string notification id to the service (404 there, not refused locally)', async () => {
    const result = await server.pla(['notifications', 'read', 'abc']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('abc');
    const log = (await server.http('GET', '/_admin/requests?limit=5')).body as { data: Array<{ path: string }> };
    expect(log.data.map((entry) => entry.path)).toContain('/api/notifications/abc/read');
  });
});

describe('unknown DTO fields are ignored, and named (Jackson)', () => {
  /** Uploads a small file with `imageJson` as its image part. */
  const uploadImage = (imageJson: string) =>
    server.http('POST', '/api/images', {
      body:
        '--XB\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\npng\r\n' +
        `--XB\r\nContent-Disposition: form-data; name="image"\r\n\r\n${imageJson}\r\n--XB--\r\n`,
      headers: { 'content-type': 'multipart/form-data; boundary=XB' },
    });

  it('a notification with unknown fields is created without them; the header names them', async () => {
    const result = await server.http('POST', '/api/notifications', { body: { forUserId: 'ivy', title: 'T', colour: 'red', extra: { a: 1 } } });
    expect(result.status).toBe(201);
    expect(result.headers['pla-ignored-fields']).toBe('body.colour, body.extra');
    const [dto] = result.body as Rec[];
    expect(dto).toMatchObject({ forUserId: 'ivy', title: 'T' });
    expect(dto).not.toHaveProperty('colour');
  });

  it('an e-mail notification and an image part with unknown fields are accepted', async () => {
    const mail = await server.http('POST', '/api/email-notifications', { body: { forUserEmail: 'a@example.com', title: 'x', priority: 'high' } });
    expect(mail.status).toBe(201);
    expect(mail.headers['pla-ignored-fields']).toBe('body.priority');
    const image = await uploadImage('{"name":"a","altText":"x"}');
    expect(image.status).toBe(201);
    expect(image.headers['pla-ignored-fields']).toBe('image.altText');
  });

  it('unknown fields whose names no header may carry are named percent-encoded (UTF-8); the request is answered and logged', async () => {
    // JSON text: a name beyond Latin-1, one with a line break, a lone surrogate, and a `%`.
    const sent = '{"forUserId":"uma","title":"T","日本":1,"a\\nb":2,"\\ud800":3,"100%":4}';
    const result = await server.http('POST', '/api/notifications', { body: sent });
    expect(result.status).toBe(201);
    expect(result.headers['pla-ignored-fields']).toBe('body.%E6%97%A5%E6%9C%AC, body.a%0Ab, body.%EF%BF%BD, body.100%25');
    const image = await uploadImage('{"name":"u","Größe 📐":1}');
    expect(image.status).toBe(201);
    expect(image.headers['pla-ignored-fields']).toBe('image.Gr%C3%B6%C3%9Fe %F0%9F%93%90');
    const held = (await server.http('GET', '/api/notifications/uma')).body as { content: Rec[] };
    expect(held.content.map((n) => n.title)).toEqual(['T']);
    const log = (await server.http('GET', '/_admin/requests?limit=5')).body as { data: Array<{ method: string; path: string; status: number }> };
    expect(log.data).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/notifications', status: 201 }));
    expect(log.data).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/images', status: 201 }));
    expect(server.stderr()).not.toContain('internal error');
  });

  it('known fields of the wrong type are still a 400', async () => {
    expect((await server.http('POST', '/api/notifications', { body: { forUserId: 'ivy', viewed: 'yes' } })).status).toBe(400);
  });
});

describe('smaller points', () => {
  it('notifications list offers no --sort (the endpoint has page and size only)', async () => {
    const help = await server.pla(['notifications', 'list', '--help']);
    expect(help.stdout).not.toContain('--sort');
    const refused = await server.pla(['notifications', 'list', 'alice', '--sort', 'id,asc']);
    expect(refused.exitCode).toBe(2);
  });

  it('unread=FALSE, TRUE, 1, off, yes… are read as Spring reads them; anything else is a 400', async () => {
    const count = async (value: string) => {
      const result = await server.http('GET', `/api/notifications/alice/count?unread=${value}`);
      expect(result.status).toBe(200);
      return (result.body as { count: number }).count;
    };
    const all = await count('false');
    const unread = await count('true');
    expect(unread).toBeLessThan(all);
    for (const value of ['FALSE', 'False', 'off', 'NO', '0', '']) expect(await count(value)).toBe(all);
    for (const value of ['TRUE', 'True', 'on', 'YES', '1', '%20true%20']) expect(await count(value)).toBe(unread);
    expect((await server.http('GET', '/api/notifications/alice/count?unread=maybe')).status).toBe(400);
  });

  it('a bulk cancel or task bulk update with [] answers as one without a body', async () => {
    for (const [method, path] of [
      ['POST', `${TASKS}/cancel/bulk`],
      ['PUT', `${TASKS}/bulk`],
      ['PUT', `${TASKS}/createOrUpdate/bulk`],
    ] as const) {
      const none = await server.http(method, path);
      const empty = await server.http(method, path, { body: [] });
      expect([empty.status, empty.text]).toEqual([none.status, none.text]);
      expect(none.status).toBe(200);
    }
  });

  it('remove of an in-use record that is already decommissioned is the 409 decommission answers', async () => {
    const record = data((await server.http('POST', DET, { body: { code: 'USED', inUse: true } })).body);
    expect((await server.http('PUT', `${DET}/decommission/${record.id}`)).status).toBe(200);
    const decommission = await server.http('PUT', `${DET}/decommission/${record.id}`);
    const remove = await server.http('PUT', `${DET}/remove/${record.id}`);
    expect(remove.status).toBe(409);
    expect(remove.status).toBe(decommission.status);
    expect((await server.http('PUT', `${DET}/remove/bulk`, { body: [record.id] })).status).toBe(409);
  });

  it('notification list items carry null for fields the notification lacks', async () => {
    await server.http('POST', '/api/notifications', { body: { forUserId: 'jack' } });
    const page = (await server.http('GET', '/api/notifications/jack')).body as { content: Rec[] };
    const item = page.content[0] as Rec;
    expect(Object.keys(item).sort()).toEqual(
      ['byUserId', 'createdAt', 'createdBy', 'createdTime', 'displayId', 'forUserId', 'id', 'message', 'read', 'redirectTo', 'title', 'type'].sort(),
    );
    expect(item).toMatchObject({ title: null, message: null, type: null, byUserId: null, createdBy: null, redirectTo: null, read: false });
  });
});
