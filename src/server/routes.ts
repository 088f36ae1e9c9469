/**
 * The routes the server registers with fastify, as data: every contract operation
 * and the server's own endpoints, each with what it leads to. Path parameters are
 * registered under positional names (`p2` = third segment) because the spec names
 * the same position differently on sibling paths (`{username}/count-by-type` next
 * to `{userName}/count`, `{id}` next to `{userName}`), which one router cannot hold;
 * each route maps the positional names back to the contract's.
 *
 * `routeEntries()` is what the fastify app registers (app.ts); `createRouter()` is
 * the same table as a lookup of its own (find-my-way, fastify's router), for what
 * needs to know which operation a method and path name outside a request of this
 * server: a proxy checking another service's traffic, the tests.
 */
import Router from 'find-my-way';
import { OPERATIONS } from '../contract/operations.js';
import type { Operation } from '../contract/operations.js';
import type { HttpMethod } from '../contract/types.js';

export type AdminEndpoint = 'index' | 'health' | 'reset' | 'requests' | 'keys.list' | 'keys.create' | 'keys.revoke' | 'openapi';

/** What a route leads to: a contract operation or one of the server's own endpoints. */
export type RouteTarget = { kind: 'operation'; op: Operation } | { kind: 'admin'; name: AdminEndpoint };

/** Longest path parameter the router matches (fastify's default is 100). */
export const MAX_PARAM_LENGTH = 500;

/** The methods of the service, in the order a 405's `Allow` names them. */
export const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

export const ADMIN_ROUTES: ReadonlyArray<{ method: HttpMethod; path: string; name: AdminEndpoint }> = [
  { method: 'GET', path: '/_admin/health', name: 'health' },
  { method: 'POST', path: '/_admin/reset', name: 'reset' },
  { method: 'GET', path: '/_admin/requests', name: 'requests' },
  { method: 'GET', path: '/_admin/keys', name: 'keys.list' },
  { method: 'POST', path: '/_admin/keys', name: 'keys.create' },
  { method: 'DELETE', path: '/_admin/keys/{id}', name: 'keys.revoke' },
  { method: 'GET', path: '/openapi.json', name: 'openapi' },
  { method: 'GET', path: '/', name: 'index' },
];

/** One route as fastify takes it. */
export interface RouteEntry {
  method: HttpMethod;
  /** fastify's form: `:p3` for the fourth segment. */
  url: string;
  target: RouteTarget;
  /** Positional name → contract name. */
  names: Record<string, string>;
}

/** Rewrites `{name}` placeholders to positional `:pN` and remembers the mapping. */
function positional(template: string): { url: string; names: Record<string, string> } {
  const names: Record<string, string> = {};
  const url = template
    .split('/')
    .map((segment, index) => {
      const match = /^\{(\w+)\}$/.exec(segment);
      if (!match?.[1]) return segment;
      names[`p${index}`] = match[1];
      return `:p${index}`;
    })
    .join('/');
  return { url, names };
}

/** Every route of the server: the contract's operations and the admin endpoints. */
export function routeEntries(): RouteEntry[] {
  const entries: RouteEntry[] = [];
  const add = (method: HttpMethod, template: string, target: RouteTarget) => entries.push({ method, target, ...positional(template) });
  for (const op of OPERATIONS) add(op.method, op.path, { kind: 'operation', op });
  for (const admin of ADMIN_ROUTES) add(admin.method, admin.path, { kind: 'admin', name: admin.name });
  return entries;
}

/** What a lookup found: the target and the path parameters under the contract's names, percent-decoded. */
export interface RouteMatch {
  target: RouteTarget;
  params: Record<string, string>;
}

/**
 * The route table as a lookup of method and path. The server's not-found handler asks
 * it which methods a path takes (405 and `Allow`, or 404): each method's routes are
 * matched on their own, so `GET /api/notifications/workorder` is the listing of user
 * `workorder`, whatever POST has at that path.
 */
export function createRouter() {
  const router = Router({ ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH });
  for (const entry of routeEntries()) router.on(entry.method, entry.url, () => undefined, entry);
  return {
    /** The route for a method and path, or why there is none (unknown path, or the methods it allows). */
    match(method: string, path: string): RouteMatch | { allowed: Array<HttpMethod | 'HEAD'> } {
      // HEAD is GET without the body.
      const asked = method === 'HEAD' ? 'GET' : method;
      const found = METHODS.includes(asked as HttpMethod) ? router.find(asked as HttpMethod, path) : null;
      if (found) {
        const entry = found.store as RouteEntry;
        return { target: entry.target, params: contractParams(entry.names, found.params) };
      }
      const allowed = METHODS.filter((m) => router.find(m, path) !== null);
      return { allowed: allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed };
    },
  };
}

/** Path parameters under the contract's names, from the positional names a route was registered with. */
export function contractParams(names: Record<string, string>, positionals: Record<string, string | undefined>): Record<string, string> {
  const params: Record<string, string> = {};
  // A loop over the keys, not `Object.entries`: every request passes here.
  for (const key of Object.keys(positionals)) {
    const value = positionals[key];
    if (value !== undefined) params[names[key] ?? key] = value;
  }
  return params;
}

export type ServerRouter = ReturnType<typeof createRouter>;
