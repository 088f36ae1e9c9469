/**
 * Notifications, email notifications, images and topics over HTTP against the
 * seeded server: shape A pages of the list-item projection, counts, mark read,
 * deletes, work orders, the outbox, content-addressed images, topics.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

type Rec = Record<string, unknown> & { id: number };
interface ShapeA {
  content: Rec[];
  totalPages: number;
  totalElements: number;
  numberOfElements: number;
  size: number;
  number: number;
  first: boolean;
  last: boolean;
  empty: boolean;
  sort: { unsorted: boolean; sorted: boolean; empty: boolean };
  pageable: { paged: boolean; unpaged: boolean; pageNumber: number; pageSize: number; offset: number; sort: unknown };
}

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer({ args: ['--max-image', '2kb'] });
});
afterAll(async () => {
  await server?.stop();
});

const count = async (path: string) => ((await server.http('GET', path)).body as { count: number }).count;
const create = async (dto: Record<string, unknown>) => {
  const result = await server.http('POST', '/api/notifications', { body: dto });
  expect(result.status).toBe(201);
  return (result.body as Rec[])[0] as Rec;
};

function multipart(parts: Array<{ name: string; filename?: string; type: string; data: Buffer | string }>): { body: Buffer; type: string } {
  const boundary = `----pla-test-${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${part.type}\r\n\r\n`),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

describe('notifications', () => {
  it('lists newest first as shape A of the list-item projection', async () => {
    const created = await create({ forUserId: 'carol', byUserId: 'dave', title: 'T', description: 'D', clickEvent: 'OPEN', type: 'INFO' });
    await create({ forUserId: 'carol', title: 'second' });
    const page = (await server.http('GET', '/api/notifications/carol?size=1&page=1')).body as ShapeA;
    expect(Object.keys(page).sort()).toEqual([
      'content',
      'empty',
      'first',
      'last',
      'number',
      'numberOfElements',
      'pageable',
      'size',
      'sort',
      'totalElements',
      'totalPages',
    ]);
    expect(page).toMatchObject({ totalPages: 2, totalElements: 2, numberOfElements: 1, size: 1, number: 1, first: false, last: true, empty: false });
    expect(page.pageable).toMatchObject({ paged: true, unpaged: false, pageNumber: 1, pageSize: 1, offset: 1 });
    expect(page.content[0]).toMatchObject({
      id: created.id,
      createdBy: 'dave',
      byUserId: 'dave',
      forUserId: 'carol',
      createdAt: created.createdDate,
      title: 'T',
      message: 'D',
      redirectTo: 'OPEN',
      type: 'INFO',
      read: false,
    });
    expect((await server.http('GET', '/api/notifications/carol')).body).toMatchObject({ size: 10, number: 0 });
  });

  it('counts all, unread, unread by type and unread on mobile; mark read changes them', async () => {
    expect(await count('/api/notifications/alice/count')).toBe(4);
    expect(await count('/api/notifications/alice/count?unread=true')).toBe(2);
    expect((await server.http('GET', '/api/notifications/alice/count-by-type')).body).toEqual({ LEASE: 1, TASK: 1 });
    expect(await count('/api/notifications/alice/for-mobile/count')).toBe(1);
    const mobile = (await server.http('GET', '/api/notifications/alice/for-mobile')).body as ShapeA;
    expect(mobile.content.map((n) => n.title)).toEqual(['Transfer failed', 'Transfer finished']);

    const unreadMobile = mobile.content.find((n) => n.read === false) as Rec;
    const read = await server.http('POST', `/api/notifications/${unreadMobile.id}/read`);
    expect(read.status).toBe(200);
    expect(read.text).toBe('');
    expect(await count('/api/notifications/alice/for-mobile/count')).toBe(0);
    expect((await server.http('GET', '/api/notifications/alice/count-by-type')).body).toEqual({ LEASE: 1 });
  });

  it('deletes one (200, no body) and all of a user', async () => {
    const n = await create({ forUserId: 'erin', title: 'x' });
    await create({ forUserId: 'erin', title: 'y' });
    const deleted = await server.http('DELETE', `/api/notifications/${n.id}`);
    expect([deleted.status, deleted.text]).toEqual([200, '']);
    expect(await count('/api/notifications/erin/count')).toBe(1);
    expect((await server.http('DELETE', `/api/notifications/${n.id}`)).status).toBe(404);
    expect((await server.http('DELETE', '/api/notifications/erin/all')).status).toBe(200);
    expect(await count('/api/notifications/erin/count')).toBe(0);
  });

  it('a work order notifies the user each property names', async () => {
    const result = await server.http('POST', '/api/notifications/workorder', { body: { 'WO-7': { forUserId: 'frank', description: 'Fix the roof' } } });
    expect([result.status, result.text]).toEqual([200, '']);
    const page = (await server.http('GET', '/api/notifications/frank')).body as ShapeA;
    expect(page.content[0]).toMatchObject({ type: 'WORK_ORDER', message: 'Fix the roof', title: 'Work order WO-7 created' });
  });
});

describe('email notifications', () => {
  it('sends into the outbox as .eml, answers 201 with sent true, deletes with 204', async () => {
    const result = await server.http('POST', '/api/email-notifications', {
      body: { forUserEmail: 'gina@example.com', byUserEmail: 'ops@example.com', title: 'Lease due', description: 'Pay by Friday', langCode: 'en' },
    });
    expect(result.status).toBe(201);
    const [dto] = result.body as Rec[];
    expect(dto).toMatchObject({ sent: true, forUserEmail: 'gina@example.com', id: expect.any(Number) as unknown });
    const outbox = join(server.dataDir, 'outbox');
    const files = await readdir(outbox);
    const eml = await readFile(join(outbox, files.find((f) => f.startsWith(String(dto?.id).padStart(6, '0'))) as string), 'utf8');
    expect(eml).toMatch(/^To: gina@example.com$/m);
    expect(eml).toMatch(/^Subject: Lease due$/m);
    expect(eml).toContain('Pay by Friday');
    const deleted = await server.http('DELETE', `/api/email-notifications/${dto?.id}`);
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect((await server.http('DELETE', `/api/email-notifications/${dto?.id}`)).status).toBe(404);
  });
});

describe('images', () => {
  const bytes = Buffer.from('not really a png, but bytes all the same');
  const sha = createHash('sha256').update(bytes).digest('hex');

  it('keeps bytes content-addressed, answers 201 with Location and no body, deletes with 204', async () => {
    const upload = () =>
      multipart([
        { name: 'image', type: 'application/json', data: JSON.stringify({ name: 'front', service: 'portfolio' }) },
        { name: 'file', filename: 'front.png', type: 'image/png', data: bytes },
      ]);
    const first = upload();
    const result = await server.http('POST', '/api/images', { body: first.body, headers: { 'content-type': first.type } });
    expect([result.status, result.text]).toEqual([201, '']);
    expect(result.headers.location).toMatch(/^\/api\/images\/\d+$/);
    const file = join(server.dataDir, 'images', sha);
    expect(await readFile(file)).toEqual(bytes);

    const again = upload();
    const second = await server.http('POST', '/api/images', { body: again.body, headers: { 'content-type': again.type } });
    expect(second.headers.location).not.toBe(result.headers.location);

    expect((await server.http('DELETE', result.headers.location as string)).status).toBe(204);
    expect((await stat(file)).size).toBe(bytes.length); // still used by the second image
    expect((await server.http('DELETE', second.headers.location as string)).status).toBe(204);
    await expect(stat(file)).rejects.toThrow();
    expect((await server.http('DELETE', second.headers.location as string)).status).toBe(404);
  });

  it('refuses a file over --max-image with 413, a missing part or bad ImageDto with 400, keeping nothing', async () => {
    const big = multipart([
      { name: 'image', type: 'application/json', data: '{"name":"big"}' },
      { name: 'file', filename: 'big.png', type: 'image/png', data: Buffer.alloc(3000, 1) },
    ]);
    expect((await server.http('POST', '/api/images', { body: big.body, headers: { 'content-type': big.type } })).status).toBe(413);
    const noImage = multipart([{ name: 'file', filename: 'a.png', type: 'image/png', data: bytes }]);
    const missing = await server.http('POST', '/api/images', { body: noImage.body, headers: { 'content-type': noImage.type } });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('"path":"image"');
    const badDto = multipart([
      { name: 'image', type: 'application/json', data: '{"name": 5}' },
      { name: 'file', filename: 'a.png', type: 'image/png', data: bytes },
    ]);
    expect((await server.http('POST', '/api/images', { body: badDto.body, headers: { 'content-type': badDto.type } })).status).toBe(400);
    expect((await readdir(join(server.dataDir, 'images'))).filter((f) => !f.startsWith('.'))).toEqual([]);
  });
});

describe('topics', () => {
  it('lists the seeded topics of a service with captions in en and de', async () => {
    const topics = (await server.http('GET', '/api/topics/portfolio')).body as Array<Rec & { captionValues: Rec[] }>;
    expect(topics.map((t) => t.code)).toEqual(['TRANSFER_DONE', 'PERIOD_CLOSE']);
    for (const topic of topics) expect(topic.captionValues.map((c) => c.langCode)).toEqual(['en', 'de']);
    expect((await server.http('GET', '/api/topics/unknown-service')).body).toEqual([]);
  });
});
