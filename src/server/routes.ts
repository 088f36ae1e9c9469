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

/** What a route leads to: a contract operation, one of the server's own endpoints, or a 405 naming the methods a path takes. */
export type RouteTarget =
  | { kind: 'operation'; op: Operation }
  | { kind: 'admin'; name: AdminEndpoint }
  | { kind: 'not-allowed'; allowed: ReadonlyArray<HttpMethod | 'HEAD'> };

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
  /** A method of the service, or (for a 405) any other method fastify takes. */
  method: string;
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

/**
 * Every route of the server: operations, admin endpoints, and for each of their paths
 * every other method of `methods` as a 405 naming the methods the path takes (HEAD
 * with GET: fastify answers HEAD for every GET route itself).
 */
export function routeEntries(methods: readonly string[] = METHODS): RouteEntry[] {
  const entries: RouteEntry[] = [];
  const add = (method: HttpMethod, template: string, target: RouteTarget) => entries.push({ method, target, ...positional(template) });
  for (const op of OPERATIONS) add(op.method, op.path, { kind: 'operation', op });
  for (const admin of ADMIN_ROUTES) add(admin.method, admin.path, { kind: 'admin', name: admin.name });
  const byUrl = new Map<string, RouteEntry[]>();
  for (const entry of entries) byUrl.set(entry.url, [...(byUrl.get(entry.url) ?? []), entry]);
  const refusals: RouteEntry[] = [];
  for (const [url, routes] of byUrl) {
    const taken = new Set<string>(routes.map((route) => route.method));
    const allowed = METHODS.filter((m) => taken.has(m));
    const named = allowed.includes('GET') ? [...allowed, 'HEAD' as const] : allowed;
    const { names } = routes[0] as RouteEntry;
    for (const method of methods) {
      if (!taken.has(method) && method !== 'HEAD') refusals.push({ method, url, names, target: { kind: 'not-allowed', allowed: named } });
    }
  }
  return [...entries, ...refusals];
}

/** What a lookup found: the target and the path parameters under the contract's names, percent-decoded. */
export interface RouteMatch {
  target: RouteTarget;
  params: Record<string, string>;
}

/** The route table as a lookup of method and path. */
export function createRouter() {
  const router = Router({ ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH });
  for (const entry of routeEntries()) router.on(entry.method as HttpMethod, entry.url, () => undefined, entry);
  return {
    /** The route for a method and path, or why there is none (unknown path, or the methods it allows). */
    match(method: string, path: string): RouteMatch | { allowed: Array<HttpMethod | 'HEAD'> } {
      // HEAD is GET without the body.
      const asked = method === 'HEAD' ? 'GET' : method;
      const found = METHODS.includes(asked as HttpMethod) ? router.find(asked as HttpMethod, path) : null;
      const any = found ?? router.find('GET', path) ?? router.find('POST', path) ?? router.find('PUT', path) ?? router.find('DELETE', path);
      if (!any) return { allowed: [] };
      const entry = any.store as RouteEntry;
      if (!found || entry.target.kind === 'not-allowed') return { allowed: entry.target.kind === 'not-allowed' ? [...entry.target.allowed] : allowedOf(router, path) };
      return { target: entry.target, params: contractParams(entry.names, found.params) };
    },
  };
}

function allowedOf(router: ReturnType<typeof Router>, path: string): Array<HttpMethod | 'HEAD'> {
  const allowed = METHODS.filter((m) => (router.find(m, path)?.store as RouteEntry | undefined)?.target.kind !== 'not-allowed' && router.find(m, path));
  return allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
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
