/**
 * The server's own endpoints under `/_admin` (and `/`, `/openapi.json`): health (no key),
 * reset, the recent request log, and API key management. All but health and the
 * OpenAPI document need a key with the `admin` permission (or `*`).
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { OPERATIONS } from '../contract/operations.js';
import { COLLECTIONS, type Store, type Transaction } from '../store/types.js';
import { administers, authorizeGrant, newKey, viewKey, type ApiKeyRecord, type KeyRing } from './auth.js';
import { readJsonBody } from './body.js';
import { REQUEST_LOG_LIMITS, type ServerOptions } from './options.js';
import { idFromPath } from './path-id.js';
import { HttpProblem, notFound, RETRY_AFTER_SECONDS } from './problem.js';
import { jsonReply, type Reply } from './reply.js';
import type { RequestLog } from './request-log.js';
import type { RequestTarget } from './request-target.js';
import type { AdminEndpoint } from './routes.js';
import { validate } from './validation.js';

/** What the admin endpoints need of the running server. */
export interface AdminRuntime {
  store: Store;
  options: ServerOptions;
  log: RequestLog;
  startedAt: number;
  /**
   * Why the store can no longer be trusted, once it cannot (the JSON-file store lost its
   * folder's lock: another process may be writing it, so what memory holds may be stale).
   * Every request but the index and the OpenAPI document is then answered 503.
   */
  storeLost(): string | undefined;
  /** Keys accepted recently; forgotten on a revoke. */
  keys: Pick<KeyRing, 'forget'>;
  /** Clears the store (keys survive), images and outbox, re-seeds unless `--no-seed`, forgets replays. */
  reset(): Promise<void>;
  /** The OpenAPI document of the contract. */
  openapi(): Promise<unknown>;
  /** Where clients reach this server, e.g. `http://127.0.0.1:4010`. */
  baseUrl(): string;
}

/**
 * What `GET /` answers: where the API, its OpenAPI document and the admin
 * endpoints are, so a person who opens the server in a browser finds their way.
 */
function index(base: string) {
  return {
    service: 'pla local server: the Portfolio and Lease Accounting service interface',
    api: `${base}/api`,
    openapi: `${base}/openapi.json`,
    health: `${base}/_admin/health`,
    requests: `${base}/_admin/requests`,
    auth: 'send the key in the x-api-key header (pla server keys create)',
  };
}

const RESOURCES = [...new Set(OPERATIONS.map((op) => op.resource))];

/** Every permission a key may carry. */
const PERMISSIONS: readonly string[] = ['*', 'admin', ...RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:*`])];

/** Permissions of a key created without `--permissions`: every resource, read and write, not admin. */
const DEFAULT_KEY_PERMISSIONS: readonly string[] = RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`]);

const newKeySchema = z.strictObject({
  name: z.string().min(1),
  env: z
    .string()
    .regex(/^[a-z0-9-]+$/i, 'letters, digits and dashes')
    .default('local'),
  permissions: z
    .array(z.string().refine((p) => PERMISSIONS.includes(p), { message: `unknown permission; use one of ${PERMISSIONS.join(', ')}` }))
    .min(1)
    .optional(),
});

/**
 * 409 when revoking `target` would leave no key that can administer keys: there
 * would be no way back but deleting the data folder (`pla server keys` needs one).
 */
async function refuseLastAdministrator(tx: Transaction, target: ApiKeyRecord): Promise<void> {
  if (!administers(target)) return;
  const keys = (await tx.find('apiKeys')) as ApiKeyRecord[];
  if (keys.some((other) => other.id !== target.id && administers(other))) return;
  throw new HttpProblem(409, `key ${target.name} is the last key that can administer keys; create another admin key before revoking it`, {
    slug: 'last-admin-key',
  });
}

const envelope = (status: number, message: string, data: unknown = null) => jsonReply(status, { success: true, message, data });

/**
 * Answers one admin endpoint (the key and permission were checked before; `key` is
 * the one presented, absent for the endpoints that need none).
 */
export async function runAdmin(
  runtime: AdminRuntime,
  name: AdminEndpoint,
  params: Record<string, string>,
  url: RequestTarget,
  req: IncomingMessage,
  key?: ApiKeyRecord,
): Promise<Reply> {
  const { store } = runtime;
  switch (name) {
    case 'health': {
      const uptimeSeconds = Math.round((Date.now() - runtime.startedAt) / 1000);
      const lost = runtime.storeLost();
      const health = lost === undefined ? await store.health() : { backend: store.backend, state: 'unavailable' as const, problem: lost };
      // Unreachable store: say so (503, so load balancers take this process out) rather than fail to count.
      if (health.state !== 'ok') return jsonReply(503, { status: 'unavailable', uptimeSeconds, store: health }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
      return jsonReply(200, {
        status: 'ok',
        uptimeSeconds,
        store: health,
        records: Object.fromEntries(await Promise.all(COLLECTIONS.filter((c) => c !== 'apiKeys').map(async (c) => [c, await store.count(c)] as const))),
      });
    }
    case 'openapi':
      return jsonReply(200, await runtime.openapi());
    case 'index':
      return jsonReply(200, index(runtime.baseUrl()));
    case 'reset':
      await runtime.reset();
      return envelope(200, runtime.options.seed ? 'store reset and seeded' : 'store reset (no seed)');
    case 'requests': {
      const limit = validate(
        z.coerce.number().int().min(1).max(REQUEST_LOG_LIMITS.most).default(REQUEST_LOG_LIMITS.shown),
        url.searchParams.get('limit') ?? undefined,
        'limit',
      );
      return envelope(200, 'recent requests, oldest first', runtime.log.recent(limit));
    }
    case 'keys.list':
      return envelope(
        200,
        'API keys',
        (await store.find('apiKeys')).map((k) => viewKey(k as ApiKeyRecord)),
      );
    case 'keys.create': {
      const input = validate(newKeySchema, await readJsonBody(req, runtime.options.maxBodyBytes), 'body');
      const permissions = input.permissions ?? [...DEFAULT_KEY_PERMISSIONS];
      if (key) authorizeGrant(key, permissions);
      const created = await store.transaction((tx) => newKey(tx, { name: input.name, env: input.env, permissions }));
      return envelope(201, `key ${input.name} created; it is shown only now`, { ...viewKey(created.record), secret: created.secret });
    }
    case 'keys.revoke': {
      const id = idFromPath(params.id);
      const revoked = await store.transaction(async (tx) => {
        const target = id === undefined ? undefined : ((await tx.get('apiKeys', id)) as ApiKeyRecord | undefined);
        if (!target) throw notFound(['API key', 'API keys'], [params.id ?? '']);
        await refuseLastAdministrator(tx, target);
        const record: ApiKeyRecord = { ...target, revokedAt: target.revokedAt ?? new Date().toISOString() };
        tx.put('apiKeys', record);
        return record;
      });
      runtime.keys.forget();
      return envelope(200, `key ${revoked.name} revoked`, viewKey(revoked));
    }
  }
}
