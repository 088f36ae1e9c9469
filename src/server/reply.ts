/**
 * A response as a value: built by the dispatcher, cached for idempotent replays,
 * written once. Keeping it a value (not direct writes to `res`) is what makes the
 * `Idempotency-Key` replay exact.
 */
import type { ServerResponse } from 'node:http';
import { jsonText } from '../json/json-text.js';
import { toJson } from './page-json.js';
import type { HttpProblem } from './problem.js';

/** Status, headers and body of a response, before it is written. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** JSON text (a string, kept as such for idempotent replays), or bytes. */
  body?: string | Buffer;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON reply (`application/json`). */
export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, headers: headers ? { 'content-type': JSON_TYPE, ...headers } : { 'content-type': JSON_TYPE }, body: toJson(value) };
}

/** A reply without a body. */
export function emptyReply(status: number, headers: Record<string, string> = {}): Reply {
  return { status, headers };
}

/** The problem+json reply of an `HttpProblem`. */
export function problemReply(problem: HttpProblem, instance: string): Reply {
  return {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8', ...problem.options.headers },
    body: jsonText(problem.body(instance)),
  };
}

/** Bytes of the slab small bodies are encoded into one after another (node's own pool takes bodies up to 4 KB only). */
const SLAB_BYTES = 64 * 1024;
/** Bodies up to this many characters go into the slab; larger ones get a Buffer of their own. */
const SLAB_BODY_CHARS = 8 * 1024;

let slab = Buffer.allocUnsafe(0);
let slabUsed = 0;

/**
 * `text` as UTF-8 bytes. A page of 20 (about 5 KB) gets a stretch of a shared slab
 * rather than a Buffer of its own: allocating one per reply, and collecting it, cost
 * more than encoding it. A stretch is never written again once handed out; a slab is
 * freed once every reply in it is sent (a client that does not read holds 64 KB, not
 * its 5 KB, until its connection times out).
 */
function utf8(text: string): Buffer {
  if (text.length > SLAB_BODY_CHARS) return Buffer.from(text);
  // A UTF-16 code unit is at most 3 bytes of UTF-8.
  if (slab.length - slabUsed < text.length * 3) {
    slab = Buffer.allocUnsafe(SLAB_BYTES);
    slabUsed = 0;
  }
  const length = slab.write(text, slabUsed);
  const bytes = slab.subarray(slabUsed, slabUsed + length);
  slabUsed += length;
  return bytes;
}

/**
 * Writes a reply, unless something already answered the request. The headers go as one
 * flat list and a text body as one UTF-8 Buffer: node then neither copies a header
 * object nor measures and encodes the text twice (once for its length, once to send).
 */
export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) return;
  const { body, headers } = reply;
  const bytes = typeof body === 'string' ? utf8(body) : body;
  const flat: Array<string | number> = [];
  for (const name of Object.keys(headers)) flat.push(name, headers[name] as string);
  flat.push('content-length', bytes === undefined ? 0 : bytes.length);
  res.writeHead(reply.status, flat);
  res.end(bytes);
}
