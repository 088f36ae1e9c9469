/**
 * The service of the interface as other stacks build it: the Spring-style service
 * (spring-style-service.ts: it holds the records and carries writes out) answering
 * its listings and reads in the forms of OData v4 and v2 (SAP), HAL (Spring Data
 * REST), a bare array with `Link` and `X-Total-Count` headers (GitHub-style),
 * cursor pages that ignore `page`, ASP.NET Core (PascalCase records and pages, and
 * `Result<T>` bodies), and Spring's `{"content": <page>}` envelope. Every form cuts
 * pages at `cap` records whatever size is asked, as real services do.
 */
import type { FakeReply, LoggedRequest } from './fake-server.js';
import { type SpringStyleOptions, type SpringStyleService, type StoredRecord, startSpringStyleService } from './spring-style-service.js';

export const LISTING_FORMS = ['link', 'odata', 'odata-v2', 'hal', 'cursor', 'aspnet', 'aspnet-result', 'spring-content'] as const;
export type ListingForm = (typeof LISTING_FORMS)[number];

export interface AnyStackOptions extends Omit<SpringStyleOptions, 'listing' | 'read'> {
  form: ListingForm;
  /** The most records a page holds (default 50). */
  cap?: number;
}

/** `count` determinations, ids 1…count; every tenth in use. */
export function manyDeterminations(count: number): StoredRecord[] {
  return Array.from({ length: count }, (_, i) => ({ id: i + 1, code: `D-${i + 1}`, status: 'ACTIVE', inUse: (i + 1) % 10 === 0 }));
}

function one(query: LoggedRequest['query'], name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

function whole(text: string | undefined, fallback: number): number {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : fallback;
}

/** ASP.NET Core's default JSON with Newtonsoft's PascalCase: `{"Id": 7, "Code": …}`. */
export function pascal(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name.charAt(0).toUpperCase() + name.slice(1), value]));
}

/** The window a request reads: from `start`, `size` records (cut to `cap`). */
function window(records: StoredRecord[], start: number, asked: number, cap: number) {
  const size = Math.min(asked, cap);
  const items = records.slice(start, start + size);
  return { size, items, more: start + items.length < records.length };
}

/** The listing answer of each form. `url` is the service's own base (for absolute next links). */
function listingOf(form: ListingForm, cap: number): (records: StoredRecord[], req: LoggedRequest) => FakeReply {
  return (records, req): FakeReply => {
    const { query } = req;
    const url = `http://${String(req.headers.host)}${req.path}`;
    const asked = whole(one(query, 'size') ?? one(query, '$top'), 20);
    switch (form) {
      case 'link': {
        // GitHub-style: pages from 1 (`page=0` is the first too), a bare array, the rest in headers.
        const page = Math.max(whole(one(query, 'page'), 1), 1);
        const { size, items, more } = window(records, (page - 1) * Math.min(asked, cap), asked, cap);
        const links = [`<${url}?page=${page + 1}&size=${size}>; rel="next"`, `<${url}?page=${Math.ceil(records.length / size)}&size=${size}>; rel="last"`];
        return { headers: { 'x-total-count': String(records.length), ...(more ? { link: links.join(', ') } : {}) }, body: items };
      }
      case 'odata': {
        // OData v4 ignores `page`: `$skip` in its own next link.
        const { size, items, more } = window(records, whole(one(query, '$skip'), 0), asked, cap);
        const skip = whole(one(query, '$skip'), 0) + items.length;
        return {
          body: {
            '@odata.context': `${url}/$metadata#Determinations`,
            '@odata.count': records.length,
            value: items,
            ...(more ? { '@odata.nextLink': `${url}?$skip=${skip}&$top=${size}` } : {}),
          },
        };
      }
      case 'odata-v2': {
        // SAP Gateway: `d.results`, the count as a string, `__next` with a skip token.
        const start = whole(one(query, '$skiptoken'), 0);
        const { items, more } = window(records, start, asked, cap);
        return {
          body: {
            d: {
              results: items.map((item) => ({ __metadata: { type: 'ZPLA.Determination' }, ...item })),
              __count: String(records.length),
              ...(more ? { __next: `${url}?$skiptoken=${start + items.length}` } : {}),
            },
          },
        };
      }
      case 'hal': {
        // Spring Data REST: pages from 0, `_embedded` and `_links`.
        const page = whole(one(query, 'page'), 0);
        const { size, items, more } = window(records, page * Math.min(asked, cap), asked, cap);
        return {
          headers: { 'content-type': 'application/hal+json' },
          body: {
            _embedded: { determinations: items },
            _links: { self: { href: `${url}?page=${page}&size=${size}` }, ...(more ? { next: { href: `${url}?page=${page + 1}&size=${size}` } } : {}) },
            page: { size, totalElements: records.length, totalPages: Math.ceil(records.length / size), number: page },
          },
        };
      }
      case 'cursor': {
        // Ignores `page`: only its cursor moves on; no total.
        const cursor = one(query, 'cursor');
        const start = cursor === undefined ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8'));
        const { items, more } = window(records, start, asked, cap);
        return { body: { items, nextCursor: more ? Buffer.from(String(start + items.length)).toString('base64url') : null } };
      }
      case 'aspnet':
      case 'aspnet-result': {
        const page = whole(one(query, 'page'), 0);
        const { size, items, more } = window(records, page * Math.min(asked, cap), asked, cap);
        const paged = { Items: items.map(pascal), PageNumber: page, PageSize: size, TotalCount: records.length, HasNextPage: more };
        return { body: form === 'aspnet' ? paged : { IsSuccess: true, Value: paged, Errors: [] } };
      }
      case 'spring-content': {
        const page = whole(one(query, 'page'), 0);
        const { size, items } = window(records, page * Math.min(asked, cap), asked, cap);
        return {
          body: { content: { content: items, page: { size, number: page, totalElements: records.length, totalPages: Math.ceil(records.length / size) } } },
        };
      }
    }
  };
}

/** A read by id in each form; a missing record as the stack says it. */
function readOf(form: ListingForm): (record: StoredRecord | undefined, id: number) => FakeReply {
  return (record, id): FakeReply => {
    if (form === 'aspnet-result')
      return record
        ? { body: { IsSuccess: true, Value: pascal(record), Errors: [] } }
        : { body: { IsSuccess: false, Errors: [`Determination ${id} not found`] } };
    if (!record) return { status: 404, body: form === 'aspnet' ? { Title: 'Not Found', Status: 404 } : { message: 'not found' } };
    if (form === 'aspnet') return { body: pascal(record) };
    if (form === 'odata-v2') return { body: { d: { __metadata: { type: 'ZPLA.Determination' }, ...record } } };
    if (form === 'odata') return { body: { '@odata.context': '$metadata#Determinations/$entity', ...record } };
    return { body: record };
  };
}

/** Starts the service answering in `form`. */
export function startAnyStackService(options: AnyStackOptions): Promise<SpringStyleService> {
  const { form, cap = 50, ...rest } = options;
  return startSpringStyleService({ ...rest, listing: listingOf(form, cap), read: readOf(form) });
}
