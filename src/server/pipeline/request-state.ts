/**
 * What the pipeline learns of one request as its hooks run, kept on fastify's
 * request (`request.pla`), and what each route declares of itself (`config.target`).
 * Declared here once for fastify's types, so hooks and routes read them typed.
 */
import type { ApiKeyRecord } from '../auth.js';
import type { OperationCall } from '../context.js';
import type { RequestTarget } from '../request-target.js';
import type { RouteTarget } from '../routes.js';

/** What the request log notes of a request, and what later hooks need of earlier ones. */
export interface RequestState {
  /** `performance.now()` when the request reached the pipeline. */
  started: number;
  /** The path problems name as their `instance`. */
  instance: string;
  /** Path and query as logged, keys in the query masked. */
  path: string;
  /** The target as the WHATWG URL parser reads it (undefined: it cannot be read). */
  target: RequestTarget | undefined;
  key: ApiKeyRecord | undefined;
  idempotencyKey: string | undefined;
  replayed: boolean;
  /**
   * True from the moment the operation's own input is read (preParsing): failures from
   * then on are the operation's, answered in the run's wire form (refusals inside a 200
   * under some profiles); those of admission and fault injection never are.
   */
  inOperation: boolean;
  /** The operation's parameters, paging and query, read before the body (preParsing). */
  call: Omit<OperationCall, 'body' | 'ignored'> | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    pla: RequestState;
  }
  interface FastifyContextConfig {
    /** What the route leads to; absent on fastify's not-found route. */
    target?: RouteTarget;
    /** The route's positional parameter names → the contract's (route-table.ts). */
    names?: Record<string, string>;
  }
}

let lastMs = NaN;
let lastIso = '';

/** `new Date().toISOString()`, formatted once per millisecond however many requests share it. */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
