/**
 * Reads the page shapes a service may answer with: shape A (flat: content, number,
 * size, totalElements, totalPages, last), shape B (content + page{…}), and a bare
 * array. Envelopes are unwrapped before this. Only what the answer says is kept:
 * whether it is right is the page walker's business (page-walk.ts).
 */
import type { PageShape } from '../contract/wire-profile.js';
import { PlaError } from '../errors.js';
import { isObject } from './envelope.js';

/** A page as the service answered it; a field it left out is undefined. */
export interface AnsweredPage<T> {
  items: T[];
  shape: PageShape;
  number?: number;
  size?: number;
  totalElements?: number;
  totalPages?: number;
  last?: boolean;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Reads one page; throws when the body is not a page at all. */
export function readPage<T>(data: unknown, operationId: string): AnsweredPage<T> {
  if (Array.isArray(data)) return { items: data as T[], shape: 'array' };
  if (!isObject(data) || !Array.isArray(data.content)) {
    throw new PlaError(`${operationId}: expected a page (content + page fields) but the service answered ${describe(data)}`, { detail: data });
  }
  const nested = isObject(data.page);
  const meta = isObject(data.page) ? data.page : data;
  const fields = {
    number: count(meta.number),
    size: count(meta.size),
    totalElements: count(meta.totalElements),
    totalPages: count(meta.totalPages),
    last: typeof data.last === 'boolean' ? data.last : undefined,
  };
  const page: AnsweredPage<T> = { items: data.content as T[], shape: nested ? 'nested' : 'flat' };
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) Object.assign(page, { [name]: value });
  return page;
}

function describe(data: unknown): string {
  if (data === undefined) return 'no body';
  if (isObject(data)) return `an object with ${Object.keys(data).slice(0, 5).join(', ') || 'no fields'}`;
  return typeof data;
}
