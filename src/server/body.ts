/**
 * Reading request bodies under a size limit. A declared Content-Length above the
 * limit is refused before a byte is read; a streamed body is counted as it comes
 * and reading stops at the limit, so nothing past it is ever buffered.
 */
import type { IncomingMessage } from 'node:http';
import { parseJson } from '../json/json-parse.js';
import { HttpProblem, clientAborted } from './problem.js';
import { arrayItems } from './item-count.js';
import { tooManyItems } from './limits.js';
import { keepBody } from './request-log.js';

/** The request's media type without parameters, lower case ('' when none). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** True when the request announces a body (length > 0 or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** A header's comma-separated list, lower case, empty members dropped. */
function codingsOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * Refuses a body in a coding the server would not undo. node's parser undoes
 * `chunked` only: a body sent `Transfer-Encoding: gzip, chunked` arrives still
 * compressed and would be stored as if plain. Such a body is a 400 (RFC 9112 allows
 * a 501, but a client retries a 5xx, and sending the same again cannot succeed); a
 * `Content-Encoding` other than `identity` is a 415 naming what is taken (RFC 7694).
 */
export function refuseUnsupportedCodings(req: IncomingMessage): void {
  const transfer = codingsOf(req.headers['transfer-encoding']).filter((coding) => coding !== 'chunked');
  if (transfer.length) {
    throw new HttpProblem(400, `transfer coding ${transfer.join(', ')} is not supported; send the body as is (Content-Length) or chunked only`, {
      slug: 'unsupported-transfer-coding',
    });
  }
  const content = codingsOf(req.headers['content-encoding']).filter((coding) => coding !== 'identity');
  if (content.length) {
    throw new HttpProblem(415, `content coding ${content.join(', ')} is not supported; send the body uncompressed`, {
      slug: 'unsupported-content-coding',
      headers: { 'accept-encoding': 'identity' },
    });
  }
}

/** 413 problem for a body over `limit` bytes. */
export function tooLarge(what: string, limit: number): HttpProblem {
  return new HttpProblem(413, `${what} is larger than the limit of ${limit} bytes`, { slug: 'too-large', headers: { connection: 'close' } });
}

/** Refuses a request whose declared length is over the limit, before reading it. */
export function checkDeclaredLength(req: IncomingMessage, limit: number): void {
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > limit) throw tooLarge('request body', limit);
}

/** First allocation for a body of unknown length; it doubles as bytes come, up to the limit. */
const INITIAL_BODY_BYTES = 16 * 1024;

/** The body before its first bytes came. */
const EMPTY = Buffer.alloc(0);

/**
 * Reads the whole body, at most `limit` bytes, into one buffer: sized from a declared
 * Content-Length, else doubled as bytes come. Chunks are copied in, never listed, so a
 * body sent a byte at a time costs its bytes, not a Buffer object per byte.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  checkDeclaredLength(req, limit);
  // The client may have gone while the request waited its turn (--latency, a key's
  // lookup on PostgreSQL): its 'close' has been and gone, and listening for it now
  // would wait forever, holding the request (and its Idempotency-Key) with it.
  if (req.destroyed) throw clientAborted('request body');
  const declared = Number(req.headers['content-length']);
  // Allocated when the first bytes come: a client that declares 10 MB and sends
  // nothing holds no 10 MB meanwhile.
  let buffer = EMPTY;
  const firstSize = Number.isSafeInteger(declared) && declared > 0 ? declared : Math.min(INITIAL_BODY_BYTES, limit);
  let size = 0;
  // Listened to rather than iterated: leaving a `for await` early destroys the
  // request, and with it the socket the 413 is to be answered on (the rest of a
  // refused body is read and discarded before answering: connection-guard.ts).
  await new Promise<void>((resolve, reject) => {
    const done = (error?: unknown) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      try {
        size = append(chunk);
      } catch (error) {
        done(error);
      }
    };
    const onEnd = () => done();
    // The stream fails or closes before its end only when the client went away mid-body (or a timeout cut it).
    const onGone = () => done(clientAborted('request body'));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onGone);
    req.once('close', onGone);
  });
  return buffer.subarray(0, size);

  /** Copies one chunk in (growing the buffer when needed); returns the new size. */
  function append(bytes: Buffer): number {
    if (size + bytes.length > limit) {
      // Stop reading here: the rest is drained before the answer, then the connection closes.
      req.pause();
      throw tooLarge('request body', limit);
    }
    if (buffer === EMPTY) buffer = Buffer.allocUnsafe(Math.max(firstSize, bytes.length));
    if (size + bytes.length > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(buffer.length * 2, size + bytes.length)));
      buffer.copy(grown, 0, 0, size);
      buffer = grown;
    }
    bytes.copy(buffer, size);
    return size + bytes.length;
  }
}

/**
 * Deepest nesting of arrays and objects a JSON body may have. `JSON.parse` reads any
 * depth, but storing or sorting a value recurses, and thousands of levels overflow the
 * stack there: refused here as the client's mistake (400), not failed later as ours (500).
 */
const MAX_JSON_DEPTH = 512;

/** True when `value` nests deeper than `limit` levels; never descends further than that. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit === 0) return true;
  const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
  for (const child of children) if (nestsDeeperThan(child, limit - 1)) return true;
  return false;
}

/** 400 problem (at `path`) unless `value` nests at most `MAX_JSON_DEPTH` levels. */
export function refuseDeepJson(value: unknown, path: string): void {
  if (!nestsDeeperThan(value, MAX_JSON_DEPTH)) return;
  const reason = `nested more than ${MAX_JSON_DEPTH} levels deep`;
  throw new HttpProblem(400, `${path}: ${reason}`, { slug: 'validation', errors: [{ path, message: reason }] });
}

/**
 * Reads and parses a JSON body; `undefined` when there is none. 415 / 400 / 413
 * otherwise; 413 too for an array of more than `maxItems` items, found before it is
 * parsed. Every number is kept exact (json/json-text.ts): ids past 2^53 as
 * BigInts, amounts a double would round as `ExactDecimal`s.
 */
export async function readJsonBody(req: IncomingMessage, limit: number, maxItems?: number): Promise<unknown> {
  if (!hasBody(req)) return undefined;
  refuseUnsupportedCodings(req);
  const type = mediaType(req);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new HttpProblem(415, `expected a body of type application/json, got ${type || 'none'}`, { slug: 'unsupported-media-type' });
  }
  const raw = await readBody(req, limit);
  if (raw.length === 0) return undefined;
  keepBody(req, raw);
  // An array of more items needs at least two bytes per item (`0,`): a shorter body needs no count.
  if (maxItems !== undefined && raw.length > 2 * maxItems) {
    const items = arrayItems(raw);
    if (items !== undefined && items > maxItems) throw tooManyItems(maxItems, items);
  }
  let value: unknown;
  try {
    value = parseJson(raw.toString('utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpProblem(400, `malformed JSON: ${reason}`, { slug: 'malformed-json', errors: [{ path: 'body', message: reason }] });
  }
  refuseDeepJson(value, 'body');
  return value;
}
