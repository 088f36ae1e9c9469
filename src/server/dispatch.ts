/**
 * The request pipeline: route → key → permission → rate limit → fault injection
 * → parameters, paging and body validated with the contract's schemas → handler
 * → the response the contract row's `response` kind and `status` call for. Every
 * failure on the way is an `HttpProblem`, answered as problem+json.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { DTO_SCHEMAS, bodySchemaFor, pathParamsSchema } from '../contract/schemas.js';
import type { Operation } from '../contract/operations.js';
import type { BodyKind } from '../contract/types.js';
// The pipeline stays synchronous until something really waits (a body, a write, --latency,
// a key not checked in the last second): a page read then costs no promise and no turn
// of the microtask queue.
import type { Eventually, Store } from '../store/types.js';
import { runAdmin, type AdminRuntime } from './admin.js';
import { maskKey } from '../contract/secrets.js';
import { drainRequest, watchResponseWrite } from './connection-guard.js';
import { authorize, type ApiKeyRecord, type KeyRing } from './auth.js';
import { hasBody, mediaType, readJsonBody, refuseUnsupportedCodings } from './body.js';
import { ignoredFieldsHeader, type OperationCall, type OperationOutcome, type ServerContext } from './context.js';
import { HANDLERS } from './handlers/index.js';
import type { IdempotencyKeys } from './idempotency.js';
import { parsePaging } from './paging.js';
import { CLIENT_ABORTED, HttpProblem, badField, noSpace, storeUnavailable } from './problem.js';
import { MAX_QUERY_PARAMS, overLimit } from './limits.js';
import { ITEM_LIST_BODIES } from '../contract/limits.js';
import { queryFlag } from './query-flags.js';
import { StoreFullError, StoreUnavailableError, isOutOfSpace } from '../store/errors.js';
import type { RateLimiter } from './rate-limit.js';
import { emptyReply, jsonReply, problemReply, writeReply, type Reply } from './reply.js';
import { keptBody, type RequestLog, type RequestLogEntry } from './request-log.js';
import { parseTarget, type RequestTarget } from './request-target.js';
import type { RouteTarget, ServerRouter } from './routes.js';
import { validate } from './validation.js';
import { isBulk, runPerItem } from './per-item-bulk.js';
import { envelopeReply, refusalReply } from './wire.js';

/** Everything the request pipeline of one running server holds. */
export interface Runtime extends ServerContext, AdminRuntime {
  router: ServerRouter;
  limiter: RateLimiter;
  keys: KeyRing;
  idempotency: IdempotencyKeys;
  log: RequestLog;
  /** Where unexpected errors are reported (stderr). */
  warn(message: string): void;
}

/** Endpoints that answer without a key. */
const PUBLIC_ADMIN = new Set(['index', 'health', 'openapi']);

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

let lastMs = NaN;
let lastIso = '';

/** `new Date().toISOString()`, formatted once per millisecond however many requests share it. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** The target of a request; one `URL` cannot read (e.g. `//`) is a 400 problem, not a crash. */
function targetOf(raw: string, notes: Notes): RequestTarget {
  try {
    return parseTarget(raw);
  } catch {
    // Logged as sent, but for a key in its query.
    notes.path = maskKeysInTarget(raw);
    throw new HttpProblem(400, 'the request target is not a valid URL path', { slug: 'bad-request' });
  }
}

/** What the request log notes of a request as the pipeline learns it. */
interface Notes {
  /** The path problems name as their `instance`. */
  instance: string;
  /** Path and query as logged. */
  path: string;
  key: ApiKeyRecord | undefined;
  idempotencyKey: string | undefined;
  replayed: boolean;
}

/**
 * Bodies of open JSON objects, whose every field is kept as sent. zod checks them but
 * builds its result by assignment, which drops a `__proto__` field; the parsed JSON
 * itself (own fields only, as `JSON.parse` makes them) is what the handlers get.
 */
const OPEN_BODIES: ReadonlySet<BodyKind> = new Set(['record', 'records', 'task-filter', 'work-order']);

/** Query parameters of paging; an endpoint that does not page answers 404 to them (spec section 7). */
const PAGING_PARAMS = ['page', 'size', 'sort'] as const;

/** Up to 15 digits: an id below 2^53, which `Number` reads exactly as the schema would. */
const SHORT_DIGITS = /^\d{1,15}$/;

/** Validated path parameters; an int64 id past 2^53 is a BigInt, exact. */
function pathParams(op: Operation, raw: Record<string, string>): Record<string, unknown> {
  const declared = op.pathParams;
  // Without path parameters the schema can only answer `{}`.
  if (!declared.length) return {};
  // One id of plain digits (a get by id): the schema's own answer without running it
  // (a BigInt, a zod parse and their objects on every such read).
  if (declared.length === 1) {
    const [only] = declared as [Operation['pathParams'][number]];
    const text = raw[only.name];
    if ((only.type === 'int64' || only.type === 'integer') && text !== undefined && SHORT_DIGITS.test(text)) return { [only.name]: Number(text) };
  }
  return validate(paramsSchemaOf(op), raw);
}

/** The body's fields the DTO schema does not know (dropped, as Jackson drops them), as `body.<name>`. */
function ignoredFields(kind: BodyKind, raw: unknown): string[] {
  const schema = DTO_SCHEMAS[kind];
  if (!schema || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
  return Object.keys(raw)
    .filter((name) => !Object.hasOwn(schema.shape, name))
    .map((name) => `body.${name}`);
}

/** Reads, checks and validates what the operation takes (waiting only for a JSON body). */
function readCall(runtime: Runtime, op: Operation, rawParams: Record<string, string>, url: RequestTarget, req: IncomingMessage): Eventually<OperationCall> {
  const params = pathParams(op, rawParams);
  const { searchParams } = url;
  if (!op.paging && searchParams.size > 0) {
    const paging = PAGING_PARAMS.find((name) => searchParams.has(name));
    if (paging) throw new HttpProblem(404, `${op.path} does not support pagination (query parameter ${paging})`, { slug: 'no-pagination' });
  }
  // Paging first: 1,500 `sort=` are best answered with the sort-key limit.
  const paging = op.paging ? parsePaging(op.paging, searchParams, runtime.options.maxPageSize, runtime.options.wire?.page) : undefined;
  if (searchParams.size > MAX_QUERY_PARAMS) throw overLimit('query', 'query parameters', MAX_QUERY_PARAMS, searchParams.size);
  for (const q of op.query) queryFlag(searchParams, q.name, q.default);
  const call = (body: unknown, ignored: readonly string[] = NONE_IGNORED): OperationCall => ({
    op,
    params,
    query: searchParams,
    body,
    req,
    now: isoNow(),
    paging,
    ignored,
  });
  if (op.body === undefined) {
    if (hasBody(req)) req.resume(); // the operation takes no body: discard whatever came
    return call(undefined);
  }
  if (op.body.kind === 'image-upload') {
    if (hasBody(req)) refuseUnsupportedCodings(req);
    if (mediaType(req) !== 'multipart/form-data') {
      throw new HttpProblem(415, `expected a body of type multipart/form-data, got ${mediaType(req) || 'none'}`, { slug: 'unsupported-media-type' });
    }
  } else {
    const { kind, required } = op.body;
    const maxItems = ITEM_LIST_BODIES.has(kind) ? runtime.options.maxBulkItems : undefined;
    return readJsonBody(req, runtime.options.maxBodyBytes, maxItems).then((raw) => {
      // An optional collection sent empty means what no body means (spec 4.3: bodies optional).
      if (!required && Array.isArray(raw) && raw.length === 0) return call(undefined);
      if (raw === undefined && required) throw badField('body', 'a request body is required');
      if (raw === undefined) return call(undefined);
      const checked = validate(bodySchemaFor(kind, op.resource, runtime.options.lenient), raw, 'body');
      return call(OPEN_BODIES.has(kind) ? raw : checked, ignoredFields(kind, raw));
    });
  }
  return call(undefined);
}

/** The `ignored` of a call without a body: shared, never changed. */
const NONE_IGNORED: readonly string[] = [];

/**
 * The reply the contract row's `response` kind and `status` call for, in the
 * run's wire form (`--wire`); a bulk request answered item by item always carries
 * its list of results.
 */
function shapeReply(runtime: Runtime, op: Operation, call: OperationCall, outcome: OperationOutcome, perItem: boolean): Reply {
  const headers = call.ignored.length ? { ...outcome.headers, ...ignoredFieldsHeader(call.ignored) } : outcome.headers;
  if (perItem) return envelopeReply(runtime.options.wire, 200, outcome.data, outcome.message ?? op.summary, headers);
  switch (op.response) {
    case 'single':
    case 'list':
    case 'void':
      return envelopeReply(runtime.options.wire, op.status, outcome.data, outcome.message ?? op.summary, headers);
    case 'none':
      return emptyReply(op.status, headers);
    default:
      return jsonReply(op.status, outcome.data, headers);
  }
}

/** Whether `op` reads one record by id: the answer a `softNotFound` profile gives 200 with no record for a missing one. */
function readsOneRecord(op: Operation): boolean {
  return op.method === 'GET' && op.response === 'single' && op.pathParams.length > 0;
}

/** An operation's failure in the run's wire form: refusals and missing records may be answered inside a 200. */
function operationErrorReply(runtime: Runtime, op: Operation, error: unknown, instance: string): Reply {
  const { wire } = runtime.options;
  if (!(error instanceof HttpProblem) || error.status >= 500 || error.options.slug === CLIENT_ABORTED) return errorReply(runtime, error, instance);
  if (wire.softNotFound && error.status === 404 && readsOneRecord(op)) return envelopeReply(wire, 200, null, `${op.summary}: nothing found`);
  return refusalReply(wire, error, instance);
}

/**
 * Runs an operation to its reply; every failure, thrown now or later, becomes a problem reply.
 * The handler sees `store` (a staging view for a request carrying an `Idempotency-Key`).
 */
function runOperation(
  runtime: Runtime,
  op: Operation,
  params: Record<string, string>,
  url: RequestTarget,
  req: IncomingMessage,
  instance: string,
  store: Store = runtime.store,
): Eventually<Reply> {
  try {
    const ctx = store === runtime.store ? runtime : { ...runtime, store };
    const call = readCall(runtime, op, params, url, req);
    // No closure, no promise on the way when nothing waits (a page or a get from the file store).
    const reply = call instanceof Promise ? call.then((read) => callReply(runtime, op, read, ctx)) : callReply(runtime, op, call, ctx);
    return reply instanceof Promise ? reply.catch((error: unknown) => operationErrorReply(runtime, op, error, instance)) : reply;
  } catch (error) {
    return operationErrorReply(runtime, op, error, instance);
  }
}

/** The handler run on a read call, and its outcome shaped into the reply. */
function callReply(runtime: Runtime, op: Operation, call: OperationCall, ctx: ServerContext): Eventually<Reply> {
  // Every operation has one: the handler map is checked against the contract by the compiler.
  const handler = HANDLERS[op.id];
  const perItem = runtime.options.wire.bulkItems === 'per-item' && isBulk(op) && Array.isArray(call.body);
  const outcome = perItem ? runPerItem(handler, call, ctx) : handler(call, ctx);
  return outcome instanceof Promise
    ? outcome.then((settled) => shapeReply(runtime, op, call, settled, perItem))
    : shapeReply(runtime, op, call, outcome, perItem);
}

function errorReply(runtime: Runtime, error: unknown, instance: string): Reply {
  if (error instanceof HttpProblem && error.options.slug === CLIENT_ABORTED) runtime.warn(`${instance}: ${error.detail}`);
  if (error instanceof HttpProblem) return problemReply(error, instance);
  if (error instanceof StoreUnavailableError) return problemReply(storeUnavailable(error.message), instance);
  if (error instanceof StoreFullError || isOutOfSpace(error)) {
    runtime.warn(`${instance}: no space left on the data folder; answered 507`);
    return problemReply(noSpace(), instance);
  }
  runtime.warn(`internal error on ${instance}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return problemReply(new HttpProblem(500, 'internal server error; see the server log'), instance);
}

/** Names of query parameters that may carry an API key (`?api_key=…`), as a URL parser reads them: masked in the request log like the header. */
const KEY_NAME = /^(?:api[_-]?key|x-api-key|key)$/i;

/** A query parameter as sent: its separator, name and value. */
const QUERY_PARAM = /([?&])([^=&#]*)=([^&#]*)/g;

/**
 * Whether a query may carry a key at all: each key name ends `key=` as sent, unless
 * some of it is percent-encoded (`?%6Bey=…` is `key` to every URL parser).
 */
const MAY_CARRY_KEY = /key=|%/i;

/** A query's name or value as a URL parser reads it (`+` a space, percent-escapes decoded); as sent when the encoding is broken. */
function queryText(sent: string): string {
  try {
    return decodeURIComponent(sent.replace(/\+/g, ' '));
  } catch {
    return sent;
  }
}

/** The query with every key-carrying parameter's value masked (`••••abcd`). */
function maskKeysInQuery(search: string): string {
  // A page's `?page=2500&size=20` has nothing to mask: one test, not a replace.
  if (!search || !MAY_CARRY_KEY.test(search)) return search;
  return search.replace(QUERY_PARAM, (param, mark: string, name: string, value: string) =>
    KEY_NAME.test(queryText(name)) ? `${mark}${name}=${maskKey(queryText(value))}` : param,
  );
}

/** A request target as the log shows it, its query's keys masked; for a target no URL parser reads, so split by hand. */
function maskKeysInTarget(raw: string): string {
  const mark = raw.indexOf('?');
  return mark === -1 ? raw : raw.slice(0, mark) + maskKeysInQuery(raw.slice(mark));
}

/** Route → key → permission → rate limit → fault injection → the operation (or admin endpoint). */
function handle(runtime: Runtime, req: IncomingMessage, method: string, notes: Notes): Eventually<Reply> {
  const url = targetOf(req.url ?? '/', notes);
  notes.instance = url.pathname;
  notes.path = url.pathname + maskKeysInQuery(url.search);
  const match = runtime.router.match(method, url.pathname);
  if ('allowed' in match) {
    if (!match.allowed.length) throw new HttpProblem(404, `no endpoint at ${url.pathname}`, { slug: 'no-endpoint' });
    throw new HttpProblem(405, `${method} is not allowed on ${url.pathname}; use ${match.allowed.join(', ')}`, {
      headers: { allow: match.allowed.join(', ') },
    });
  }
  const { target, params } = match;
  // A store that lost its lock may hold stale records: nothing is read from it (health says why).
  const lost = runtime.storeLost();
  if (lost !== undefined && !(target.kind === 'admin' && PUBLIC_ADMIN.has(target.name))) throw storeUnavailable(lost);
  const permission = permissionOf(target);
  if (!permission)
    return target.kind === 'admin'
      ? runAdmin(runtime, target.name, params, url, req)
      : proceedWith(runtime, req, method, url, target.op, params, notes, undefined);
  const key = runtime.keys.authenticate(req.headers['x-api-key']);
  // A key checked within the last second is there at once: no closure, no promise.
  if (key instanceof Promise) return key.then((known) => admitted(runtime, req, method, url, target, params, notes, permission, known));
  return admitted(runtime, req, method, url, target, params, notes, permission, key);
}

/** Permission, then rate limit (`limited`: already taken), then the endpoint, for a request whose key is known. */
function admitted(
  runtime: Runtime,
  req: IncomingMessage,
  method: string,
  url: RequestTarget,
  target: RouteTarget,
  params: Record<string, string>,
  notes: Notes,
  permission: string,
  key: ApiKeyRecord,
  limited = false,
): Eventually<Reply> {
  if (!limited) {
    notes.key = key;
    authorize(key, permission);
    const taken = runtime.limiter.take(key.id);
    if (taken instanceof Promise) return taken.then(() => admitted(runtime, req, method, url, target, params, notes, permission, key, true));
  }
  return target.kind === 'admin'
    ? runAdmin(runtime, target.name, params, url, req, key)
    : proceedWith(runtime, req, method, url, target.op, params, notes, key);
}

/** Latency (`--latency`), fault injection, idempotent replay, then the operation. */
function proceedWith(
  runtime: Runtime,
  req: IncomingMessage,
  method: string,
  url: RequestTarget,
  op: Operation,
  params: Record<string, string>,
  notes: Notes,
  key: ApiKeyRecord | undefined,
  waited = false,
): Eventually<Reply> {
  if (!waited && runtime.options.latencyMs > 0) {
    return sleep(runtime.options.latencyMs).then(() => proceedWith(runtime, req, method, url, op, params, notes, key, true));
  }
  // Injected before anything runs, so a retried request is always safe.
  if (runtime.options.failRate > 0 && Math.random() < runtime.options.failRate) {
    throw new HttpProblem(500, 'injected failure (--fail-rate)', { slug: 'injected-failure' });
  }
  const { idempotencyKey } = notes;
  // Every write may carry a key (an upsert of records without id creates as a POST does).
  if (method !== 'GET' && method !== 'HEAD' && idempotencyKey && key) {
    const run = (store: Store) => Promise.resolve(runOperation(runtime, op, params, url, req, notes.instance, store));
    return runtime.idempotency.run(`${key.id} ${method} ${url.pathname} ${idempotencyKey}`, run).then((result) => {
      notes.replayed = result.replayed;
      return result.reply;
    });
  }
  return runOperation(runtime, op, params, url, req, notes.instance);
}

/**
 * Answers and logs a request once its reply is known. A body left unread (refused
 * before it was read, or cut at the size limit) is drained first, so the client
 * reads the answer (connection-guard.ts).
 */
function finish(runtime: Runtime, req: IncomingMessage, res: ServerResponse, reply: Reply, notes: Notes, started: number): void {
  // A request without a body has nothing left to read, though node marks it complete
  // only after its listener returns: a GET answered at once needs no drain (a promise,
  // a timer and three listeners).
  if (req.complete || req.destroyed || !hasBody(req)) {
    // Logged now, written at the turn's end: a request answered after it in this turn
    // (the log itself, pipelined on the same connection) finds it in the log.
    logAnswer(runtime, req, reply, notes, started);
    return writeSoon(runtime, req, res, reply, notes);
  }
  void drainRequest(req).then((all) => {
    // Past the drain's limits the rest is not read: the connection closes after the answer.
    const sent = all ? reply : { ...reply, headers: { ...reply.headers, connection: 'close' } };
    writeAnswer(runtime, req, res, sent, notes);
    logAnswer(runtime, req, sent, notes, started);
  });
}

/** A reply of this turn of the event loop, to be written at its end. */
interface Answer {
  runtime: Runtime;
  req: IncomingMessage;
  res: ServerResponse;
  reply: Reply;
  notes: Notes;
}

let answers: Answer[] = [];

/**
 * Writes the replies of one turn of the event loop together, once every request that
 * arrived in it has been answered, rather than each between the others' work. A
 * client on this machine then wakes once for the turn's answers instead of once per
 * answer, and on loopback that wake-up is paid inside the server's own write: under
 * 10 connections, writing a turn's replies together cut the CPU a bare node:http
 * server spent per answer by 7–8 % (docs/benchmarks.md). An answer waits at most for
 * the rest of its turn.
 */
function writeSoon(runtime: Runtime, req: IncomingMessage, res: ServerResponse, reply: Reply, notes: Notes): void {
  if (answers.push({ runtime, req, res, reply, notes }) === 1) setImmediate(writeAll);
}

function writeAll(): void {
  const due = answers;
  answers = [];
  for (const { runtime, req, res, reply, notes } of due) {
    try {
      writeAnswer(runtime, req, res, reply, notes);
    } catch (error) {
      // One answer that cannot be written must not keep the others of its turn unanswered.
      runtime.warn(`internal error answering ${notes.instance}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      res.destroy();
    }
  }
}

function writeAnswer(runtime: Runtime, req: IncomingMessage, res: ServerResponse, reply: Reply, notes: Notes): void {
  writeReply(res, notes.replayed ? { ...reply, headers: { ...reply.headers, 'idempotent-replayed': 'true' } } : reply);
  watchResponseWrite(res, runtime.options.writeTimeoutMs, runtime.warn, `${req.method ?? 'GET'} ${notes.instance}`);
}

/** Adds the request and its answer to the request log (and the console's lines). */
function logAnswer(runtime: Runtime, req: IncomingMessage, reply: Reply, notes: Notes, started: number): void {
  const { key } = notes;
  const header = req.headers['x-api-key'];
  const presented = key ? undefined : header;
  // Field by field, no spreads: every request passes here.
  const entry: RequestLogEntry = {
    at: Date.now(),
    method: req.method ?? 'GET',
    path: notes.path,
    status: reply.status,
    ms: Math.round(performance.now() - started),
    key: key ?? (typeof presented === 'string' && presented ? maskKey(presented) : undefined),
    idempotencyKey: notes.idempotencyKey,
    replayed: notes.replayed,
  };
  const body = keptBody(req);
  if (body) {
    entry.body = body;
    if (typeof header === 'string') entry.presented = header;
  }
  runtime.log.add(entry);
}

/** The node:http request listener of the local server. */
export function createRequestListener(runtime: Runtime) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const raw = req.url ?? '/';
    const idempotencyKey = req.headers['idempotency-key'];
    const notes: Notes = {
      instance: raw,
      path: raw,
      key: undefined,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
      replayed: false,
    };
    let reply: Eventually<Reply>;
    try {
      reply = handle(runtime, req, req.method ?? 'GET', notes);
    } catch (error) {
      reply = errorReply(runtime, error, notes.instance);
    }
    if (reply instanceof Promise) {
      void reply.catch((error: unknown) => errorReply(runtime, error, notes.instance)).then((settled) => finish(runtime, req, res, settled, notes, started));
    } else {
      finish(runtime, req, res, reply, notes, started);
    }
  };
}
