/**
 * The router, generated from the contract table. Path parameters are registered
 * under positional names (`p2` = third segment) because the spec names the same
 * position differently on sibling paths (`{username}/count-by-type` next to
 * `{userName}/count`, `{id}` next to `{userName}`); each route maps the positional
 * names back to the contract's.
 */
import Router from 'find-my-way';
import { OPERATIONS } from '../contract/operations.js';
import type { Operation } from '../contract/operations.js';
import type { HttpMethod } from '../contract/types.js';

/** What a route leads to: a contract operation or one of the server's own endpoints. */
export type RouteTarget = { kind: 'operation'; op: Operation } | { kind: 'admin'; name: AdminEndpoint };

export type AdminEndpoint = 'index' | 'health' | 'reset' | 'requests' | 'keys.list' | 'keys.create' | 'keys.revoke' | 'openapi';

interface RouteStore {
  target: RouteTarget;
  /** Positional name → contract name. */
  names: Record<string, string>;
}

export interface RouteMatch {
  target: RouteTarget;
  /** Path parameters under the contract's names, percent-decoded. */
  params: Record<string, string>;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

const ADMIN_ROUTES: ReadonlyArray<{ method: HttpMethod; path: string; name: AdminEndpoint }> = [
  { method: 'GET', path: '/_admin/health', name: 'health' },
  { method: 'POST', path: '/_admin/reset', name: 'reset' },
  { method: 'GET', path: '/_admin/requests', name: 'requests' },
  { method: 'GET', path: '/_admin/keys', name: 'keys.list' },
  { method: 'POST', path: '/_admin/keys', name: 'keys.create' },
  { method: 'DELETE', path: '/_admin/keys/{id}', name: 'keys.revoke' },
  { method: 'GET', path: '/openapi.json', name: 'openapi' },
  { method: 'GET', path: '/', name: 'index' },
];

/** Rewrites `{name}` placeholders to positional `:pN` and remembers the mapping. */
function positional(template: string): { path: string; names: Record<string, string> } {
  const names: Record<string, string> = {};
  const path = template
    .split('/')
    .map((segment, index) => {
      const match = /^\{(\w+)\}$/.exec(segment);
      if (!match?.[1]) return segment;
      names[`p${index}`] = match[1];
      return `:p${index}`;
    })
    .join('/');
  return { path, names };
}

/** Routes every contract operation and admin endpoint. */
export function createRouter() {
  const router = Router({ ignoreTrailingSlash: true, maxParamLength: 500 });
  const add = (method: HttpMethod, template: string, target: RouteTarget) => {
    const { path, names } = positional(template);
    const store: RouteStore = { target, names };
    router.on(method, path, () => undefined, store);
  };
  for (const op of OPERATIONS) add(op.method, op.path, { kind: 'operation', op });
  for (const admin of ADMIN_ROUTES) add(admin.method, admin.path, { kind: 'admin', name: admin.name });

  return {
    /** The route for a method and path, or why there is none (unknown path, or the methods it allows). */
    match(method: string, path: string): RouteMatch | { allowed: Array<HttpMethod | 'HEAD'> } {
      // HEAD is GET without the body (node leaves the body out of a HEAD answer).
      const asked = method === 'HEAD' ? 'GET' : method;
      const found = METHODS.includes(asked as HttpMethod) ? router.find(asked as HttpMethod, path) : null;
      if (found) {
        const store = found.store as RouteStore;
        const params: Record<string, string> = {};
        // A loop over the keys, not `Object.entries`: every request passes here.
        const positionals = found.params;
        for (const key of Object.keys(positionals)) {
          const value = positionals[key];
          if (value !== undefined) params[store.names[key] ?? key] = value;
        }
        return { target: store.target, params };
      }
      const allowed = METHODS.filter((m) => router.find(m, path) !== null);
      return { allowed: allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed };
    },
  };
}

export type ServerRouter = ReturnType<typeof createRouter>;
