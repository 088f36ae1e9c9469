/**
 * A response as a value: built by the dispatcher, cached for idempotent replays,
 * written once. Keeping it a value (not direct writes to `res`) is what makes the
 * `Idempotency-Key` replay exact.
 */
import type { ServerResponse } from 'node:http';
import { jsonText } from '../json/json-text.js';
import { utf8 } from './body-bytes.js';
import { toJson } from './page-json.js';
import type { HttpProblem } from './problem.js';

/** Status, headers and body of a response, before it is written. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** JSON text or its UTF-8 bytes (a page: never written again once made), or other bytes. */
  body?: string | Buffer;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The headers of most replies, one object for all of them (frozen: a reply's headers are never changed in place). */
const JSON_HEADERS: Record<string, string> = Object.freeze({ 'content-type': JSON_TYPE });

/** A JSON reply (`application/json`). */
export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return jsonBytesReply(status, toJson(value), headers);
}

/** A JSON reply of JSON text already written, or its UTF-8 bytes. */
export function jsonBytesReply(status: number, body: string | Buffer, headers?: Record<string, string>): Reply {
  return { status, headers: headers ? { 'content-type': JSON_TYPE, ...headers } : JSON_HEADERS, body };
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

/**
 * Writes a reply, unless something already answered the request. The headers go as one
 * flat list and a text body as one UTF-8 Buffer: node then neither copies a header
 * object nor measures and encodes the text twice (once for its length, once to send).
 */
export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) return;
  const { body, headers } = reply;
  const bytes = typeof body === 'string' ? utf8(body) : body;
  const length = bytes === undefined ? 0 : bytes.length;
  let flat: Array<string | number>;
  if (headers === JSON_HEADERS) flat = ['content-type', JSON_TYPE, 'content-length', length];
  else {
    flat = [];
    for (const name of Object.keys(headers)) flat.push(name, headers[name] as string);
    flat.push('content-length', length);
  }
  res.writeHead(reply.status, flat);
  res.end(bytes);
}
