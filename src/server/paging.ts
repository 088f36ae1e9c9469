/**
 * Paging: the query (`page`, `size`, `sort`) validated against the contract's
 * paging schema, and the two page shapes of spec 2.3 — shape B for accounting
 * pages, shape A (flat, with Spring's `sort` and `pageable` objects) for
 * notification pages.
 */
import { pagingSchema } from '../contract/schemas.js';
import type { Paging } from '../contract/types.js';
import type { PageResult, SortKey } from '../store/types.js';
import { validate } from './validation.js';

export interface PageRequest {
  page: number;
  size: number;
  sort: SortKey[];
}

const DEFAULT_SIZE: Record<Paging, number> = { pageable: 100, search: 100, notifications: 10 };

const schemas = new Map<string, ReturnType<typeof pagingSchema>>();

/** The paging schema for a default and maximum size, built once. */
function schemaFor(paging: Paging, maxSize: number): ReturnType<typeof pagingSchema> {
  const key = `${paging}:${maxSize}`;
  let schema = schemas.get(key);
  if (!schema) schemas.set(key, (schema = pagingSchema(DEFAULT_SIZE[paging], maxSize)));
  return schema;
}

/** Reads `page`, `size` and every `sort` of the query; 400 on a negative page or a size out of 1..max. */
export function parsePaging(paging: Paging, query: URLSearchParams, maxSize: number): PageRequest {
  const sorts = query.getAll('sort');
  const raw: Record<string, unknown> = {};
  if (query.has('page')) raw.page = query.get('page');
  if (query.has('size')) raw.size = query.get('size');
  if (sorts.length) raw.sort = sorts;
  const parsed = validate(schemaFor(paging, maxSize), raw);
  const list = parsed.sort === undefined ? [] : Array.isArray(parsed.sort) ? parsed.sort : [parsed.sort];
  return { page: parsed.page, size: parsed.size, sort: list.map(toSortKey) };
}

/** `createdAt,DESC` → `{ field: 'createdAt', direction: 'desc' }`. */
export function toSortKey(text: string): SortKey {
  const [field = '', direction = 'asc'] = text.split(',');
  return { field, direction: direction.toLowerCase() === 'desc' ? 'desc' : 'asc' };
}

/** Shape B: `{ content, page: { size, totalElements, totalPages, number } }`. */
export function pageB<T>(content: T[], result: Pick<PageResult, 'total'>, request: PageRequest) {
  return {
    content,
    page: { size: request.size, totalElements: result.total, totalPages: Math.ceil(result.total / request.size), number: request.page },
  };
}

/** Shape A, exactly the fields of spec 2.3. */
export function pageA<T>(content: T[], result: Pick<PageResult, 'total'>, request: PageRequest, sorted: boolean) {
  const totalPages = Math.ceil(result.total / request.size);
  const sort = { unsorted: !sorted, sorted, empty: !sorted };
  return {
    content,
    totalPages,
    totalElements: result.total,
    numberOfElements: content.length,
    size: request.size,
    number: request.page,
    first: request.page === 0,
    last: request.page >= totalPages - 1,
    empty: content.length === 0,
    sort,
    pageable: { paged: true, unpaged: false, pageNumber: request.page, pageSize: request.size, offset: request.page * request.size, sort },
  };
}
