/**
 * onRequest, first: the request's state, its target (400 when no URL parser reads
 * it), the store (503 once it lost its lock), the key (401), its permission (403) and the rate limit (429).
 * Nothing of the body has been read yet: a refused request costs no body.
 *
 * A done-callback hook rather than an async one: a key checked within the last
 * second and a local rate limit answer at once, and a page read then costs no
 * promise and no turn of the microtask queue.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { authorize, type ApiKeyRecord } from '../auth.js';
import { HttpProblem, storeUnavailable } from '../problem.js';
import type { RequestTarget } from '../request-target.js';
import type { AdminEndpoint, RouteTarget } from '../routes.js';
import type { Runtime } from '../runtime.js';
import { maskKeysInQuery, maskKeysInTarget } from './logged-target.js';
import type { RequestState } from './request-state.js';

/** Endpoints that answer without a key. */
export const PUBLIC_ADMIN: ReadonlySet<AdminEndpoint> = new Set(['index', 'health', 'openapi']);

/** The permission a route needs, or none. */
function permissionOf(target: RouteTarget): string | undefined {
  if (target.kind === 'operation') return target.op.permission;
  return PUBLIC_ADMIN.has(target.name) ? undefined : 'admin';
}

/** What `rewriteUrl` (app.ts) learnt of a request before routing: when it came and its target as URL reads it. */
export interface Arrival {
  started: number;
  target: RequestTarget | undefined;
}

/** The admission hook of one server; `arrivals` holds what `rewriteUrl` learnt. */
export function admission(runtime: Runtime, arrivals: WeakMap<IncomingMessage, Arrival>) {
  return function admit(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const raw = request.originalUrl;
    const arrival = arrivals.get(request.raw);
    const idempotencyKey = request.headers['idempotency-key'];
    const target = arrival?.target;
    const state: RequestState = {
      started: arrival?.started ?? performance.now(),
      instance: target ? target.pathname : raw,
      path: target ? target.pathname + maskKeysInQuery(target.search) : maskKeysInTarget(raw),
      target,
      key: undefined,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
      replayed: false,
      inOperation: false,
      call: undefined,
    };
    request.pla = state;
    try {
      if (!target) throw new HttpProblem(400, 'the request target is not a valid URL path', { slug: 'bad-request' });
      const route = request.routeOptions.config.target;
      // No route: fastify's not-found handler answers 404 or 405 (app.ts).
      if (!route) return done();
      // A store that lost its lock may hold stale records: nothing is read from it (health says why).
      const lost = runtime.storeLost();
      if (lost !== undefined && !(route.kind === 'admin' && PUBLIC_ADMIN.has(route.name))) throw storeUnavailable(lost);
      const permission = permissionOf(route);
      if (!permission) return done();
      const key = runtime.keys.authenticate(request.headers['x-api-key']);
      if (key instanceof Promise) {
        key.then((known) => admitKey(runtime, state, known, permission, done), done);
        return;
      }
      admitKey(runtime, state, key, permission, done);
    } catch (error) {
      done(error as Error);
    }
  };
}

/** Permission, then the rate limit, for a request whose key is known. */
function admitKey(runtime: Runtime, state: RequestState, key: ApiKeyRecord, permission: string, done: HookHandlerDoneFunction): void {
  try {
    state.key = key;
    authorize(key, permission);
    const taken = runtime.limiter.take(key.id);
    if (taken instanceof Promise) {
      taken.then(() => done(), done);
      return;
    }
    done();
  } catch (error) {
    done(error as Error);
  }
}
