/**
 * A response as a value: built by the dispatcher, cached for idempotent replays,
 * written once. Keeping it a value (not direct writes to `res`) is what makes the
 * `Idempotency-Key` replay exact.
 */
import type { ServerResponse } from 'node:http';
import type { HttpProblem } from './problem.js';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A JSON reply (`application/json`). */
export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(JSON.stringify(value)) };
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
    body: Buffer.from(JSON.stringify(problem.body(instance))),
  };
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) return;
  const headers: Record<string, string | number> = { ...reply.headers, 'content-length': reply.body?.length ?? 0 };
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}
