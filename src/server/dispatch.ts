/**
 * The request pipeline: route → key → permission → rate limit → fault injection
 * → parameters, paging and body validated with the contract's schemas → handler
 * → the response the contract row's `response` kind and `status` call for. Every
 * failure on the way is an `HttpProblem`, answered as problem+json.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { BODY_SCHEMAS, pathParamsSchema } from '../contract/schemas.js';
import type { Operation } from '../contract/types.js';
import { runAdmin, type AdminRuntime } from './admin.js';
import { authenticate, authorize, maskSecret, type ApiKeyRecord } from './auth.js';
import { hasBody, mediaType, readJsonBody } from './body.js';
import type { OperationCall, ServerContext } from './context.js';
import { handlerFor } from './handlers/index.js';
import type { IdempotencyCache } from './idempotency.js';
import { parsePaging } from './paging.js';
import { HttpProblem, badField } from './problem.js';
import type { RateLimiter } from './rate-limit.js';
import { emptyReply, jsonReply, problemReply, writeReply, type Reply } from './reply.js';
import type { RequestLog } from './request-log.js';
import type { RouteTarget, ServerRouter } from './routes.js';
import { validate } from './validation.js';

export interface Runtime extends ServerContext, AdminRuntime {
  router: ServerRouter;
  limiter: RateLimiter;
  idempotency: IdempotencyCache;
  log: RequestLog;
  /** Where unexpected errors are reported (stderr). */
  warn(message: string): void;
}

/** Endpoints that answer without a key. */
const PUBLIC_ADMIN = new Set(['health', 'openapi']);

function permissionOf(target: RouteTarget): string | undefined {
  if (target.kind === 'operation') return target.op.permission;
  return PUBLIC_ADMIN.has(target.name) ? undefined : 'admin';
}

/** Path-parameter schemas, built once per operation rather than per request. */
const paramSchemas = new Map<Operation, ReturnType<typeof pathParamsSchema>>();

function paramsSchemaOf(op: Operation): ReturnType<typeof pathParamsSchema> {
  let schema = paramSchemas.get(op);
  if (!schema) paramSchemas.set(op, (schema = pathParamsSchema(op)));
  return schema;
}

/** Reads, checks and validates what the operation takes, runs its handler and shapes the reply. */
async function runOperation(runtime: Runtime, op: Operation, rawParams: Record<string, string>, url: URL, req: IncomingMessage): Promise<Reply> {
  const params = validate(paramsSchemaOf(op), rawParams);
  const paging = op.paging ? parsePaging(op.paging, url.searchParams, runtime.options.maxPageSize) : undefined;
  for (const q of op.query) {
    const value = url.searchParams.get(q.name);
    if (value !== null && value !== 'true' && value !== 'false') throw badField(q.name, 'must be true or false');
  }
  let body: unknown;
  if (op.body?.kind === 'image-upload') {
    if (mediaType(req) !== 'multipart/form-data') {
      throw new HttpProblem(415, `expected a body of type multipart/form-data, got ${mediaType(req) || 'none'}`, { slug: 'unsupported-media-type' });
    }
  } else if (op.body) {
    const raw = await readJsonBody(req, runtime.options.maxBodyBytes);
    if (raw === undefined && op.body.required) throw badField('body', 'a request body is required');
    body = raw === undefined ? undefined : validate(BODY_SCHEMAS[op.body.kind], raw, 'body');
  } else if (hasBody(req)) {
    req.resume(); // the operation takes no body: discard whatever came
  }

  const handler = handlerFor(op.id);
  if (!handler) throw new HttpProblem(500, `no handler for ${op.id}`);
  const call: OperationCall = { op, params, query: url.searchParams, body, req, now: new Date().toISOString(), ...(paging ? { paging } : {}) };
  const outcome = await handler(call, runtime);
  const headers = outcome.headers ?? {};
  switch (op.response) {
    case 'single':
    case 'list':
    case 'void':
      return jsonReply(op.status, { success: true, message: outcome.message ?? op.summary, data: outcome.data ?? null }, headers);
    case 'none':
      return emptyReply(op.status, headers);
    default:
      return jsonReply(op.status, outcome.data, headers);
  }
}

function errorReply(runtime: Runtime, error: unknown, instance: string): Reply {
  if (error instanceof HttpProblem) return problemReply(error, instance);
  runtime.warn(`internal error on ${instance}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return problemReply(new HttpProblem(500, 'internal server error; see the server log'), instance);
}

/** The node:http request listener of the local server. */
export function createRequestListener(runtime: Runtime) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://local');
    const instance = url.pathname;
    const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    let key: ApiKeyRecord | undefined;
    let replayed = false;
    let reply: Reply;
    try {
      const match = runtime.router.match(method, url.pathname);
      if ('allowed' in match) {
        if (!match.allowed.length) throw new HttpProblem(404, `no endpoint at ${url.pathname}`, { slug: 'no-endpoint' });
        throw new HttpProblem(405, `${method} is not allowed on ${url.pathname}; use ${match.allowed.join(', ')}`, { headers: { allow: match.allowed.join(', ') } });
      }
      const { target, params } = match;
      const permission = permissionOf(target);
      if (permission) {
        key = authenticate(runtime.store, req.headers['x-api-key']);
        authorize(key, permission);
        runtime.limiter.take(key.id);
      }
      if (target.kind === 'admin') {
        reply = await runAdmin(runtime, target.name, params, url, req);
      } else {
        if (runtime.options.latencyMs > 0) await sleep(runtime.options.latencyMs);
        // Injected before anything runs, so a retried request is always safe.
        if (runtime.options.failRate > 0 && Math.random() < runtime.options.failRate) {
          throw new HttpProblem(500, 'injected failure (--fail-rate)', { slug: 'injected-failure' });
        }
        const run = () => runOperation(runtime, target.op, params, url, req).catch((error: unknown) => errorReply(runtime, error, instance));
        if (method === 'POST' && idempotencyKey && key) {
          const result = await runtime.idempotency.run(`${key.id} ${method} ${url.pathname} ${idempotencyKey}`, run);
          reply = result.reply;
          replayed = result.replayed;
        } else {
          reply = await run();
        }
      }
    } catch (error) {
      reply = errorReply(runtime, error, instance);
    }
    if (replayed) reply = { ...reply, headers: { ...reply.headers, 'idempotent-replayed': 'true' } };
    writeReply(res, reply);

    const presented = req.headers['x-api-key'];
    runtime.log.add({
      at: new Date().toISOString(),
      method,
      path: url.pathname + url.search,
      status: reply.status,
      ms: Math.round(performance.now() - started),
      ...(key ? { key: `${key.name} (••••${key.last4})` } : typeof presented === 'string' && presented ? { key: maskSecret(presented) } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
      ...(replayed ? { replayed } : {}),
    });
  };
}
