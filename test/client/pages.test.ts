import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../support/fake-server.js';
import { useFakeServer } from './helpers.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const records = Array.from({ length: 25 }, (_, i) => ({ id: i + 1 }));

/** Shape B in an envelope, like the local server. */
function shapeB(req: LoggedRequest) {
  const page = Number(req.query.page ?? 0);
  const size = Number(req.query.size ?? 10);
  const content = records.slice(page * size, page * size + size);
  return {
    body: {
      success: true,
      message: 'ok',
      data: { content, page: { size, number: page, totalElements: records.length, totalPages: Math.ceil(records.length / size) } },
    },
  };
}

/** Shape A, flat and bare, like the notification lists. */
function shapeA(req: LoggedRequest) {
  const page = Number(req.query.page ?? 0);
  const size = Number(req.query.size ?? 10);
  const content = records.slice(page * size, page * size + size);
  const totalPages = Math.ceil(records.length / size);
  return {
    body: {
      content,
      number: page,
      size,
      totalElements: records.length,
      totalPages,
      numberOfElements: content.length,
      first: page === 0,
      last: page + 1 >= totalPages,
      empty: content.length === 0,
      sort: { unsorted: true, sorted: false, empty: true },
      pageable: { paged: true, unpaged: false, pageNumber: page, pageSize: size, offset: page * size },
    },
  };
}

/** A client told by its wire profile that pages count from 0: it sends only the pages it reads. */
const ZERO_BASED = { wire: { page: { base: 0 as const } } };

describe('pages', () => {
  const fake = useFakeServer();

  it('reads shape B inside an envelope', async () => {
    fake.server().setRoutes([{ path: DET, reply: shapeB }]);
    const page = await fake.client().page('determinations.list', { paging: { page: 1, size: 10 } });
    expect(page).toEqual({ items: records.slice(10, 20), number: 1, size: 10, totalElements: 25, totalPages: 3, last: false });
  });

  it('reads shape A, flat', async () => {
    fake.server().setRoutes([{ path: '/api/notifications/ann', reply: shapeA }]);
    const page = await fake.client().page('notifications.list', { params: { userName: 'ann' }, paging: { page: 2, size: 10 } });
    expect(page).toEqual({ items: records.slice(20), number: 2, size: 10, totalElements: 25, totalPages: 3, last: true });
  });

  it('reads a bare array as one last page', async () => {
    fake.server().setRoutes([{ path: DET, reply: { body: records.slice(0, 3) } }]);
    const page = await fake.client().page('determinations.list');
    expect(page).toMatchObject({ items: records.slice(0, 3), number: 0, last: true });
  });

  it('pages() streams every page and stops at the last one', async () => {
    for (const [path, reply, params] of [
      [DET, shapeB, {}],
      ['/api/notifications/ann', shapeA, { userName: 'ann' }],
    ] as const) {
      fake.server().setRoutes([{ path, reply }]);
      const before = fake.server().requests.length;
      const seen: number[] = [];
      const op = path === DET ? 'determinations.list' : 'notifications.list';
      for await (const page of fake.client(ZERO_BASED).pages(op, { params, paging: { size: 10 } })) seen.push(...page.items.map((r) => r.id as number));
      expect(seen).toEqual(records.map((r) => r.id));
      const sent = fake.server().requests.slice(before);
      // The first page goes without `page` (every service's default is its first page).
      expect(sent.map((r) => r.query.page)).toEqual([undefined, '1', '2']);
    }
  });

  it('pages() stops at a short page when the service gives no totals', async () => {
    fake.server().setRoutes([
      {
        path: DET,
        reply: (req) => {
          const page = Number(req.query.page ?? 0);
          return { body: { content: records.slice(page * 10, page * 10 + 10) } };
        },
      },
    ]);
    let count = 0;
    for await (const page of fake.client().pages('determinations.list', { paging: { size: 10 } })) count += page.items.length;
    expect(count).toBe(25);
  });

  it('pages() stops at maxItems, starting from the requested page', async () => {
    fake.server().setRoutes([{ path: DET, reply: shapeB }]);
    const before = fake.server().requests.length;
    const pages = [];
    for await (const page of fake.client(ZERO_BASED).pages('determinations.list', { paging: { page: 1, size: 10 }, maxItems: 12 })) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([10, 2]);
    expect(pages[1]!.items).toEqual(records.slice(20, 22));
    expect(pages[1]!.last).toBe(true);
    expect(
      fake
        .server()
        .requests.slice(before)
        .map((r) => r.query.page),
    ).toEqual(['1', '2']);
  });

  it('without a profile, finds the page base with two reads of one record before reading past page 0', async () => {
    fake.server().setRoutes([{ path: DET, reply: shapeB }]);
    const before = fake.server().requests.length;
    const seen: number[] = [];
    for await (const page of fake.client().pages('determinations.list', { paging: { size: 10 } })) seen.push(...page.items.map((r) => r.id as number));
    expect(seen).toEqual(records.map((r) => r.id));
    const sent = fake
      .server()
      .requests.slice(before)
      .map((r) => `${String(r.query.page)}/${String(r.query.size)}`);
    expect(sent).toEqual(['undefined/10', 'undefined/1', '1/1', '1/10', '2/10']);
  });

  it('a Spring Slice (no count) that cuts sizes to 4 and echoes the size asked: every record once, later pages at the cut size', async () => {
    fake.server().setRoutes([
      {
        path: DET,
        reply: (req) => {
          const page = Number(req.query.page ?? 0);
          const size = Math.min(Number(req.query.size ?? 10), 4);
          const content = records.slice(page * size, page * size + size);
          return { body: { content, number: page, size: Number(req.query.size ?? 10), first: page === 0, last: (page + 1) * size >= records.length } };
        },
      },
    ]);
    const before = fake.server().requests.length;
    const seen: number[] = [];
    for await (const page of fake.client(ZERO_BASED).pages('determinations.list', { paging: { size: 10 } }))
      seen.push(...page.items.map((r) => r.id as number));
    expect(seen).toEqual(records.map((r) => r.id));
    expect(
      fake
        .server()
        .requests.slice(before)
        .map((r) => r.query.size),
    ).toEqual(['10', '4', '4', '4', '4', '4', '4']);
  });

  it('a service that answers the first records whatever page is asked: an error, not the same records again', async () => {
    fake.server().setRoutes([
      {
        path: DET,
        reply: (req) => ({
          body: { content: records.slice(0, 10), page: { size: 10, number: Number(req.query.page ?? 0), totalElements: 25, totalPages: 3 } },
        }),
      },
    ]);
    const seen: unknown[] = [];
    const walk = async () => {
      for await (const page of fake.client(ZERO_BASED).pages('determinations.list', { paging: { size: 10 } })) seen.push(...page.items);
    };
    await expect(walk()).rejects.toThrow(/page 1 holds only records of earlier pages/);
    expect(seen).toEqual(records.slice(0, 10));
  });

  it('reads a count and a next link beside the records of an envelope: a cut page is followed, never the end', async () => {
    // `{"success": true, "data": [...], "total": 25, "next": …}`: cut at 10 whatever is asked.
    fake.server().setRoutes([
      {
        path: DET,
        reply: (req) => {
          const from = Number(req.query.offset ?? 0);
          const data = records.slice(from, from + 10);
          return { body: { success: true, data, total: records.length, ...(from + 10 < records.length ? { next: `${DET}?offset=${from + 10}` } : {}) } };
        },
      },
    ]);
    const seen: unknown[] = [];
    const before = fake.server().requests.length;
    for await (const page of fake.client().pages('determinations.list', { paging: { size: 20 } })) seen.push(...page.items);
    expect(seen).toEqual(records);
    expect(
      fake
        .server()
        .requests.slice(before)
        .map((r) => r.query.offset ?? null),
    ).toEqual([null, '10', '20']);
  });

  it('refuses a body that is not a page', async () => {
    fake.server().setRoutes([{ path: DET, reply: { body: { success: true, message: 'ok', data: { id: 1 } } } }]);
    await expect(fake.client().page('determinations.list')).rejects.toMatchObject({
      exitCode: 11,
      message: expect.stringMatching(/holds no records in a form pla reads/),
    });
  });
});
