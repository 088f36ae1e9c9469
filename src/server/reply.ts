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
  /** JSON text stays a string: `res.end` then sends it in one chunk with the head, with no Buffer copy first. */
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

/** Writes a reply, unless something already answered the request. */
export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) return;
  const { body } = reply;
  const length = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  res.writeHead(reply.status, { ...reply.headers, 'content-length': length });
  res.end(body);
}
