/**
 * JSON bodies whose integer ids go past 2^53. The spec types ids as integer(int64),
 * up to 9223372036854775807, but `JSON.parse` turns such a literal into the nearest
 * double (…808), so a 404 would name an id nobody sent. Integer literals of 16 digits
 * or more are read exactly (as BigInt); `parseJson` then keeps them exact
 * where the body kind holds ids and turns every other one back into the number plain
 * JSON would have made (open records store numbers, never BigInts).
 */
import { randomBytes } from 'node:crypto';
import type { BodyKind } from '../contract/types.js';

/** A body without a run of 16 digits holds no integer `JSON.parse` could round: the fast path. */
const LONG_DIGITS = /\d{16}/;
/** A JSON number at a position (sticky), to find where a literal ends. */
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;
/** Marks a long integer literal as a string; the nonce keeps a client's own string from looking like one. */
const MARK = `\u0000int64:${randomBytes(6).toString('hex')}:`;
/** The mark as it is written inside a JSON string (the control character escaped). */
const MARK_IN_JSON = JSON.stringify(MARK).slice(1, -1);

/** Rewrites integer literals of 16+ digits outside strings as marked strings. */
function markLongIntegers(text: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip a string, escapes included.
      for (i += 1; i < text.length && text.charCodeAt(i) !== 0x22; i += 1) if (text.charCodeAt(i) === 0x5c) i += 1;
      continue;
    }
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) continue;
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) continue;
    const literal = match[0];
    if (match[1] === undefined && match[2] === undefined && literal.replace('-', '').length >= 16) {
      out += `${text.slice(copied, i)}"${MARK_IN_JSON}${literal}"`;
      copied = i + literal.length;
    }
    i += literal.length - 1;
  }
  return out + text.slice(copied);
}

/** Every BigInt in `value` as the number `JSON.parse` would have made; `keep` says where one stays exact. */
function settle(value: unknown, keep: (parent: unknown, key: string | number) => boolean): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    const settled = typeof child === 'bigint' ? (keep(value, key) ? child : Number(child)) : settle(child, keep);
    if (settled !== child) (value as Record<string | number, unknown>)[key] = settled;
  }
  return value;
}

/** Where a body of `kind` holds ids: the elements of an id list, the `id` of a record or of each record of a list. */
function idPlaces(value: unknown, kind: BodyKind | undefined): (parent: unknown, key: string | number) => boolean {
  if (kind === 'ids') return (parent) => parent === value;
  if (kind === 'record') return (parent, key) => parent === value && key === 'id';
  if (kind === 'records' && Array.isArray(value)) {
    const records = new Set<unknown>(value);
    return (parent, key) => key === 'id' && records.has(parent);
  }
  return () => false;
}

/**
 * `JSON.parse`, except that integer literals of 16+ digits where `kind` holds ids come
 * back as exact BigInts; every other one is the number `JSON.parse` makes.
 */
export function parseJson(text: string, kind?: BodyKind): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text) as unknown;
  const value = JSON.parse(markLongIntegers(text), (_key, parsed: unknown) =>
    typeof parsed === 'string' && parsed.startsWith(MARK) ? BigInt(parsed.slice(MARK.length)) : parsed,
  ) as unknown;
  if (typeof value === 'bigint') return Number(value);
  return settle(value, idPlaces(value, kind));
}
