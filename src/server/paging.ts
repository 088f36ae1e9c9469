/**
 * Paging: the query (`page`, `size`, `sort`) validated against the contract's
 * paging schema, and the two page shapes of spec 2.3 — shape B for accounting
 * pages, shape A (flat, with Spring's `sort` and `pageable` objects) for
 * notification pages — or, under `--wire page.shape=…`, another stack's form.
 */
import { pagingSchema } from '../contract/schemas.js';
import type { PageProfile, PageShape } from '../contract/wire-profile.js';
import type { Operation } from '../contract/operations.js';
import type { PagingSpec } from '../contract/types.js';
import type { PageResult, SortKey, StoredRecord } from '../store/types.js';
import { MAX_SORT_KEYS, overLimit } from './limits.js';
import { StoredRecordPage } from './page-json.js';
import { validate } from './validation.js';

/** A page request as the handlers read it: zero-based page, size, sort keys (empty = the default). */
export interface PageRequest {
  page: number;
  size: number;
  sort: SortKey[];
  /** The size asked for, when a wire profile's maximum cut it to `size`. */
  askedSize?: number;
}

/** A page request with the window it covers in the store's terms. */
export interface PageWindow extends PageRequest {
  offset: number;
  limit: number;
}

/**
 * The page a call of a paged operation asks for. The dispatcher reads the paging of
 * every operation whose contract row has one, so only a handler wired to the wrong
 * row finds none.
 */
export function requestedPage(call: { op: Operation; paging?: PageRequest }): PageWindow {
  const { paging } = call;
  if (paging === undefined) throw new TypeError(`${call.op.id} has no paging in the contract`);
  // Field by field, not a spread: every page read passes here (a spread showed in its profile).
  const window: PageWindow = { page: paging.page, size: paging.size, sort: paging.sort, offset: paging.page * paging.size, limit: paging.size };
  if (paging.askedSize !== undefined) window.askedSize = paging.askedSize;
  return window;
}

const schemas = new Map<string, ReturnType<typeof pagingSchema>>();

/** The paging schema for a default and maximum size, built once. */
function schemaFor(paging: PagingSpec, maxSize: number): ReturnType<typeof pagingSchema> {
  const key = `${paging.defaultSize}:${maxSize}`;
  let schema = schemas.get(key);
  if (!schema) schemas.set(key, (schema = pagingSchema(paging.defaultSize, maxSize)));
  return schema;
}

const DIGITS = /^\d{1,9}$/;

/** The parameter as a number when absent (`fallback`) or plain digits; undefined for anything else. */
function plainNumber(query: URLSearchParams, name: string, fallback: number): number | undefined {
  const text = query.get(name);
  if (text === null) return fallback;
  return DIGITS.test(text) ? Number(text) : undefined;
}

/** Sizes a capping profile takes (and cuts to its maximum): anything a 9-digit parameter can say. */
const ANY_SIZE = 999_999_999;

/**
 * Reads `page`, `size` and every `sort` of the query; 400 on a negative page or a
 * size out of 1..max. Under a wire profile's paging, `page` counts from its base
 * (Spring's one-indexed-parameters: 0 and 1 both name the first page) and a size
 * above its maximum is cut to it, not refused.
 */
export function parsePaging(paging: PagingSpec, query: URLSearchParams, maxSize: number, wire?: PageProfile): PageRequest {
  const cap = wire?.maxSize;
  const read = readPaging(paging, query, cap === undefined ? maxSize : ANY_SIZE);
  // A cursor service ignores `page`: only its cursor moves on (a cursor not of ours is the first page's).
  const cursor = query.get('cursor');
  const page = wire?.shape === 'cursor' ? (cursor === null ? 0 : (pageOfCursor(cursor) ?? 0)) : wire?.base === 1 ? Math.max(read.page - 1, 0) : read.page;
  if (cap !== undefined && read.size > cap) return { ...read, page, size: cap, askedSize: read.size };
  return page === read.page ? read : { ...read, page };
}

function readPaging(paging: PagingSpec, query: URLSearchParams, maxSize: number): PageRequest {
  // The common query (digits, a size in range, no sort) needs no schema and gets the
  // schema's own answer; anything else, and every error message, comes from the schema.
  if (!query.has('sort')) {
    const page = plainNumber(query, 'page', 0);
    const size = plainNumber(query, 'size', paging.defaultSize);
    if (page !== undefined && size !== undefined && size >= 1 && size <= maxSize) return { page, size, sort: [] };
  }
  const sorts = query.getAll('sort');
  if (sorts.length > MAX_SORT_KEYS) throw overLimit('sort', 'sort keys', MAX_SORT_KEYS, sorts.length);
  const raw: Record<string, unknown> = {};
  if (query.has('page')) raw.page = query.get('page');
  if (query.has('size')) raw.size = query.get('size');
  if (sorts.length) raw.sort = sorts;
  const parsed = validate(schemaFor(paging, maxSize), raw);
  const list = parsed.sort === undefined ? [] : Array.isArray(parsed.sort) ? parsed.sort : [parsed.sort];
  return { page: parsed.page, size: parsed.size, sort: list.map(toSortKey) };
}

/** `createdAt,DESC` → `{ field: 'createdAt', direction: 'desc' }`. */
function toSortKey(text: string): SortKey {
  const [field = '', direction = 'asc'] = text.split(',');
  return { field, direction: direction.toLowerCase() === 'desc' ? 'desc' : 'asc' };
}

/** The `size` a page says: the size answered, or under a profile that echoes it, the size asked for. */
function sizeSaid(request: PageRequest, wire: PageProfile | undefined): number {
  return wire?.sizeEcho === 'requested' ? (request.askedSize ?? request.size) : request.size;
}

/**
 * Shape B: `{ content, page: { size, totalElements, totalPages, number } }`. The
 * content is the store's own records, unchanged, so their JSON text can be cached.
 */
export function pageB(content: StoredRecord[], result: Pick<PageResult, 'total'>, request: PageRequest, wire?: PageProfile) {
  const size = sizeSaid(request, wire);
  return new StoredRecordPage(content, {
    size,
    totalElements: result.total,
    totalPages: Math.ceil(result.total / size),
    number: request.page,
  });
}

/** Shape A, exactly the fields of spec 2.3. */
export function pageA<T>(content: T[], result: Pick<PageResult, 'total'>, request: PageRequest, sorted: boolean, wire?: PageProfile) {
  const size = sizeSaid(request, wire);
  const totalPages = Math.ceil(result.total / size);
  const sort = { unsorted: !sorted, sorted, empty: !sorted };
  return {
    content,
    totalPages,
    totalElements: result.total,
    numberOfElements: content.length,
    size,
    number: request.page,
    first: request.page === 0,
    last: request.page >= totalPages - 1,
    empty: content.length === 0,
    sort,
    pageable: { paged: true, unpaged: false, pageNumber: request.page, pageSize: size, offset: request.page * request.size, sort },
  };
}

/** What a listing answers: its body, and the headers of the forms that page by them (`Link`, `X-Total-Count`). */
export interface PagedAnswer {
  data: unknown;
  headers?: Record<string, string>;
}

/** The page after `request`'s as a relative link (`?page=2&size=20&sort=…`), the page numbered from the profile's base. */
function nextLink(request: PageRequest, wire: PageProfile | undefined): string {
  const query = new URLSearchParams({ page: String(request.page + 1 + (wire?.base ?? 0)), size: String(request.askedSize ?? request.size) });
  for (const key of request.sort) query.append('sort', `${key.field},${key.direction}`);
  return `?${query.toString()}`;
}

/** A cursor naming page `page` of a listing (`page.shape=cursor`): opaque to clients. */
export function cursorFor(page: number): string {
  return Buffer.from(`page:${page}`).toString('base64url');
}

/** The page a cursor names, or undefined when it is not one of ours. */
function pageOfCursor(cursor: string): number | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return /^page:\d{1,9}$/.test(text) ? Number(text.slice(5)) : undefined;
}

/**
 * A page as this run answers it: in the wire profile's shape when `--wire` names
 * one, else in the listing's own (`shape`: B for accounting, A for notifications).
 * Numbers in the answer stay zero-based under a one-based profile, as Spring's are.
 * The other stacks' forms (`link`, `odata`, `odata-v2`, `hal`, `items`, `cursor`)
 * name the next page by a link or cursor, so clients can rehearse following them.
 */
export function shapedPage<T>(
  shape: PageShape,
  content: T[],
  result: Pick<PageResult, 'total'>,
  request: PageRequest,
  wire: PageProfile | undefined,
  sorted = false,
): PagedAnswer {
  const more = (request.page + 1) * request.size < result.total;
  const next = more ? nextLink(request, wire) : undefined;
  const size = sizeSaid(request, wire);
  switch (wire?.shape ?? shape) {
    case 'array':
      return { data: content };
    case 'flat':
      return { data: pageA(content, result, request, sorted, wire) };
    case 'nested':
      return { data: pageB(content as StoredRecord[], result, request, wire) };
    case 'link':
      return { data: content, headers: { 'x-total-count': String(result.total), ...(next ? { link: `<${next}>; rel="next"` } : {}) } };
    case 'odata':
      return { data: { '@odata.context': '$metadata#Records', '@odata.count': result.total, value: content, ...(next ? { '@odata.nextLink': next } : {}) } };
    case 'odata-v2':
      return { data: { d: { results: content, __count: String(result.total), ...(next ? { __next: next } : {}) } } };
    case 'hal':
      return {
        data: {
          _embedded: { records: content },
          _links: next ? { next: { href: next } } : {},
          page: { size, totalElements: result.total, totalPages: Math.ceil(result.total / size), number: request.page },
        },
      };
    case 'items':
      return { data: { items: content, totalCount: result.total, pageNumber: request.page, pageSize: size, hasNextPage: more } };
    case 'cursor':
      return { data: { items: content, nextCursor: more ? cursorFor(request.page + 1) : null } };
  }
}
