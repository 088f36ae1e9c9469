/**
 * Reads a page in any of the common forms a service answers a listing with, once
 * its envelope is unwrapped: Spring's shape A (flat) and shape B (`content` +
 * `page{}`), a bare array, OData v4 (`value`, `@odata.count`, `@odata.nextLink`)
 * and v2 (`d.results`, `__count`, `__next`), HAL (`_embedded.*`, `_links.next`),
 * `items`/`Items`/`data`/`results` with a total, a cursor (`nextCursor`,
 * `nextPageToken`, …), and the headers `Link` (RFC 8288, rel="next") and
 * `X-Total-Count`. Field names are matched whatever their case (ASP.NET's
 * `Items`, `TotalCount`). Only what the answer says is kept: whether it is right
 * is the page walker's business (page-walk.ts). An answer holding no records in a
 * form pla knows is an `UnreadableAnswerError` naming what came (exit 11).
 */
import LinkHeader from 'http-link-header';
import type { PageShape } from '../contract/wire-profile.js';
import { UnreadableAnswerError } from '../errors.js';
import { fieldOf, isObject, keyOf } from './objects.js';

/** The way to the page after this one that the service gave: a link to follow, or a cursor to send back. */
export type NextPage = { url: string } | { cursor: { param: string; value: string } };

/** A page as the service answered it; a field it left out is undefined. */
export interface AnsweredPage<T> {
  items: T[];
  shape: PageShape;
  number?: number;
  size?: number;
  totalElements?: number;
  totalPages?: number;
  last?: boolean;
  /** The service's own way to the next page (a `Link` rel=next, a next link or a cursor in the body). */
  next?: NextPage;
  /** The answer pages by links or cursors (it named a next, or said there is none: `"nextCursor": null`). */
  linked?: boolean;
}

/** What came with the body that a page may be read from. */
export interface PageContext {
  headers?: Record<string, string | string[] | undefined>;
  /** The answer's status, for the error when it is not a page. */
  status?: number;
}

/** Fields that hold a page's records, in the order they are looked for (any case). */
const ITEM_FIELDS = ['content', 'value', 'items', 'results', 'data', 'records', 'rows', 'elements', 'entries'];
/** Fields holding the count of every record of the listing. */
const TOTAL_FIELDS = ['totalElements', '@odata.count', '__count', 'totalCount', 'total_count', 'totalItems', 'totalRecords', 'totalResults', 'total'];
const NUMBER_FIELDS = ['number', 'pageNumber'];
const SIZE_FIELDS = ['size', 'pageSize', 'per_page', 'perPage', 'limit'];
const PAGES_FIELDS = ['totalPages', 'pageCount', 'total_pages'];
/** Fields holding a link to the next page: a URL, or `{href}`. */
const NEXT_LINK_FIELDS = ['@odata.nextLink', 'odata.nextLink', 'nextLink', '__next', 'next', 'next_page_url', 'nextPageUrl'];
/** Fields holding a cursor, and the query parameter it is sent back in. */
const CURSOR_FIELDS: ReadonlyArray<readonly [field: string, param: string]> = [
  ['nextCursor', 'cursor'],
  ['next_cursor', 'cursor'],
  ['nextPageToken', 'pageToken'],
  ['next_page_token', 'page_token'],
  ['continuationToken', 'continuationToken'],
  ['nextToken', 'nextToken'],
];
/** Objects beside the records that carry paging fields (`page{}`, `meta{}`, `pagination{}`). */
const META_FIELDS = ['page', 'meta', 'pagination', 'paging', 'pageInfo', '_links', 'links'];

function count(value: unknown): number | undefined {
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function first<V>(sources: ReadonlyArray<Record<string, unknown>>, fields: readonly string[], read: (value: unknown) => V | undefined): V | undefined {
  for (const source of sources)
    for (const field of fields) {
      const value = read(fieldOf(source, field));
      if (value !== undefined) return value;
    }
  return undefined;
}

function header(context: PageContext, name: string): string | undefined {
  const value = context.headers?.[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The `Link` header's rel="next" target (RFC 8288), if it names one; `null` when it has links but none next. */
function linkHeaderNext(context: PageContext): string | null | undefined {
  const text = header(context, 'link');
  if (!text) return undefined;
  try {
    return LinkHeader.parse(text).rel('next')[0]?.uri ?? null;
  } catch {
    return undefined;
  }
}

/** A next link as a body gives it: a URL string, or `{href}`; a word that is no URL is a cursor. */
function linkText(value: unknown): string | undefined {
  const text = isObject(value) ? fieldOf(value, 'href') : value;
  return typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined;
}

function looksLikeUrl(text: string): boolean {
  return /^(https?:\/\/|\/|\?)/i.test(text);
}

/** The next page the body names, `null` when it names none in a field that would hold it (`"nextCursor": null`). */
function bodyNext(sources: ReadonlyArray<Record<string, unknown>>): NextPage | null | undefined {
  let none = false;
  for (const source of sources) {
    for (const field of NEXT_LINK_FIELDS) {
      const value = fieldOf(source, field);
      if (value === null || value === '') none = true;
      const text = linkText(value);
      if (text === undefined) continue;
      if (looksLikeUrl(text)) return { url: text };
      // `"next": "eyJpZCI6NTB9"`: an opaque word, sent back as a cursor.
      if (field === 'next') return { cursor: { param: 'cursor', value: text } };
    }
    for (const [field, param] of CURSOR_FIELDS) {
      const value = fieldOf(source, field);
      if (value === null || value === '') none = true;
      if (typeof value === 'string' && value !== '') return { cursor: { param, value } };
    }
  }
  return none ? null : undefined;
}

/** The records of a body and the objects its paging fields may be in; undefined when it holds none. */
function recordsOf(data: unknown): { items: unknown[]; sources: Array<Record<string, unknown>>; shape: PageShape } | undefined {
  if (Array.isArray(data)) return { items: data, sources: [], shape: 'array' };
  if (!isObject(data)) return undefined;
  // OData v2: `{"d": {"results": [...], "__count": "250", "__next": "…"}}`.
  const d = fieldOf(data, 'd');
  if (isObject(d) && Array.isArray(fieldOf(d, 'results'))) return { items: fieldOf(d, 'results') as unknown[], sources: [d, data], shape: 'odata-v2' };
  // HAL: `{"_embedded": {"determinations": [...]}, "_links": {...}, "page": {...}}`.
  const embedded = fieldOf(data, '_embedded');
  if (isObject(embedded)) {
    const list = Object.values(embedded).find(Array.isArray);
    if (list) return { items: list as unknown[], sources: [data, ...metaOf(data)], shape: 'hal' };
  }
  for (const field of ITEM_FIELDS) {
    const value = fieldOf(data, field);
    if (Array.isArray(value)) {
      const nested = isObject(fieldOf(data, 'page'));
      const shape: PageShape =
        field === 'content' ? (nested ? 'nested' : 'flat') : field === 'value' && fieldOf(data, '@odata.context') !== undefined ? 'odata' : 'items';
      return { items: value, sources: [data, ...metaOf(data)], shape };
    }
    // A page inside a field of its own (Spring's `{"content": <page>}`, ASP.NET's `Result<T>` `{"Value": <page>}`).
    if (isObject(value)) {
      const inner = recordsOf(value);
      if (inner && inner.shape !== 'array') return inner;
    }
  }
  return undefined;
}

function metaOf(data: Record<string, unknown>): Array<Record<string, unknown>> {
  return META_FIELDS.map((field) => fieldOf(data, field)).filter(isObject);
}

/** Reads one page; throws `UnreadableAnswerError` (exit 11) when the body holds no records in a form pla knows. */
export function readPage<T>(data: unknown, operationId: string, context: PageContext = {}): AnsweredPage<T> {
  const found = recordsOf(data);
  if (!found) {
    const saw = describe(data);
    throw new UnreadableAnswerError(
      `${operationId}: the service answered ${saw}, which holds no records in a form pla reads (content, value, items, data, d.results, _embedded, a bare array)`,
      context.status ?? 200,
      saw,
      data,
    );
  }
  const { items, sources, shape } = found;
  const fromHeader = linkHeaderNext(context);
  const fromBody = bodyNext(sources);
  const next: NextPage | undefined = fromHeader ? { url: fromHeader } : (fromBody ?? undefined);
  const hasNext = first(sources, ['hasNext', 'hasNextPage', 'hasMore', 'has_more'], (value) => (typeof value === 'boolean' ? value : undefined));
  const last =
    first(sources, ['last', 'isLast', 'isLastPage'], (value) => (typeof value === 'boolean' ? value : undefined)) ??
    (hasNext === undefined ? undefined : !hasNext);
  const fields = {
    number: first(sources, NUMBER_FIELDS, count),
    size: first(sources, SIZE_FIELDS, count),
    totalElements:
      first(sources, TOTAL_FIELDS, count) ??
      count(header(context, 'x-total-count')) ??
      count(header(context, 'x-total')) ??
      // Django REST framework's `count` is the whole listing's beside its `next`; elsewhere a `count` may be the page's own.
      (sources[0] !== undefined && keyOf(sources[0], 'next') !== undefined ? count(fieldOf(sources[0], 'count')) : undefined),
    totalPages: first(sources, PAGES_FIELDS, count),
    last,
  };
  const page: AnsweredPage<T> = {
    items: items as T[],
    shape: shape === 'array' && (fromHeader !== undefined || fields.totalElements !== undefined) ? 'link' : shape,
  };
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) Object.assign(page, { [name]: value });
  if (next) page.next = next;
  if (next || fromHeader === null || fromBody === null) page.linked = true;
  if (page.shape === 'items' && next && 'cursor' in next) page.shape = 'cursor';
  return page;
}

function describe(data: unknown): string {
  if (data === undefined) return 'no body';
  if (isObject(data)) return `an object with ${Object.keys(data).slice(0, 6).join(', ') || 'no fields'}`;
  return `JSON ${typeof data}`;
}
