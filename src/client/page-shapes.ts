/**
 * Normalises the page shapes a service may answer with: shape A (flat: content,
 * number, size, totalElements, totalPages, last), shape B (content + page{…}), and a
 * bare array (taken as one, last page). Envelopes are unwrapped before this.
 */
import { PlaError } from '../errors.js';
import { isObject } from './envelope.js';
import type { Page, PageRequest } from './types.js';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Reads one page; throws when the body is not a page at all. */
export function toPage<T>(data: unknown, requested: PageRequest, operationId: string): Page<T> {
  if (Array.isArray(data)) {
    return { items: data as T[], number: requested.page ?? 0, size: data.length, last: true };
  }
  if (!isObject(data) || !Array.isArray(data.content)) {
    throw new PlaError(`${operationId}: expected a page (content + page fields) but the service answered ${describe(data)}`, { detail: data });
  }
  const items = data.content as T[];
  const meta = isObject(data.page) ? data.page : data;
  const number = count(meta.number) ?? requested.page ?? 0;
  const size = count(meta.size) ?? requested.size ?? items.length;
  const totalElements = count(meta.totalElements);
  const totalPages = count(meta.totalPages);
  // Trust an explicit `last`; else the page count; else a short or empty page ends it.
  const last =
    typeof data.last === 'boolean'
      ? data.last
      : totalPages !== undefined
        ? number + 1 >= totalPages
        : items.length === 0 || items.length < size;
  return {
    items,
    number,
    size,
    ...(totalElements !== undefined ? { totalElements } : {}),
    ...(totalPages !== undefined ? { totalPages } : {}),
    last,
  };
}

function describe(data: unknown): string {
  if (data === undefined) return 'no body';
  if (isObject(data)) return `an object with ${Object.keys(data).slice(0, 5).join(', ') || 'no fields'}`;
  return typeof data;
}
