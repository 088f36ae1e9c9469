/**
 * What an operation takes, read in two steps of fastify's lifecycle:
 *
 * - preParsing (`readParameters`): path parameters, paging and the query, checked with
 *   the contract's schemas before a byte of the body is read (1,500 `sort=` are
 *   answered with the sort-key limit, a bad id with its 400, whatever the body);
 * - the content-type parser (`parseBody`): how the JSON body is read, under the size
 *   and item caps, every number exact (ids past 2^53 as BigInts: src/json). It is the
 *   one parser for every media type (`'*'`), because which body a request may carry is
 *   the route's to say, not the header's: a multipart upload and the admin endpoints
 *   read their own bodies, an operation without one has it discarded. It hands on a
 *   `PendingBody`, read when the handler asks: a write carrying an `Idempotency-Key`
 *   must look its key up first (a replay answers without reading the body again, and a
 *   repeat arriving meanwhile waits for the first), which happens in the handler.
 *
 * `operationCall` then checks the parsed body against the row's schema.
 */
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { DTO_SCHEMAS, bodySchemaFor, pathParamsSchema } from '../../contract/schemas.js';
import type { Operation } from '../../contract/operations.js';
import type { BodyKind } from '../../contract/types.js';
import { ITEM_LIST_BODIES } from '../../contract/limits.js';
import { hasBody, mediaType, readJsonBody, refuseUnsupportedCodings } from '../body.js';
import type { OperationCall } from '../context.js';
import { MAX_QUERY_PARAMS, overLimit } from '../limits.js';
import { parsePaging } from '../paging.js';
import { HttpProblem, badField } from '../problem.js';
import { queryFlag } from '../query-flags.js';
import { contractParams } from '../routes.js';
import type { Runtime } from '../runtime.js';
import { validate } from '../validation.js';
import { isoNow } from './request-state.js';

/** Path-parameter schemas, built once per operation rather than per request. */
const paramSchemas = new Map<Operation, ReturnType<typeof pathParamsSchema>>();

function paramsSchemaOf(op: Operation): ReturnType<typeof pathParamsSchema> {
  let schema = paramSchemas.get(op);
  if (!schema) paramSchemas.set(op, (schema = pathParamsSchema(op)));
  return schema;
}

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

/** Query parameters of paging; an endpoint that does not page answers 404 to them (spec section 7). */
const PAGING_PARAMS = ['page', 'size', 'sort'] as const;

/** preParsing: the operation's parameters, paging and query, checked before its body is read. */
export function readParameters(runtime: Runtime) {
  return function readOperationParameters(
    request: FastifyRequest,
    _reply: FastifyReply,
    payload: RequestPayload,
    done: (error: Error | null, payload?: RequestPayload) => void,
  ): void {
    const target = request.routeOptions.config.target;
    const state = request.pla;
    if (target?.kind !== 'operation' || !state.target) return done(null, payload);
    state.inOperation = true;
    try {
      const { op } = target;
      const params = pathParams(op, contractParams(request.routeOptions.config.names ?? {}, request.params as Record<string, string>));
      const { searchParams } = state.target;
      if (!op.paging && searchParams.size > 0) {
        const paging = PAGING_PARAMS.find((name) => searchParams.has(name));
        if (paging) throw new HttpProblem(404, `${op.path} does not support pagination (query parameter ${paging})`, { slug: 'no-pagination' });
      }
      // Paging first: 1,500 `sort=` are best answered with the sort-key limit.
      const paging = op.paging ? parsePaging(op.paging, searchParams, runtime.options.maxPageSize, runtime.options.wire?.page) : undefined;
      if (searchParams.size > MAX_QUERY_PARAMS) throw overLimit('query', 'query parameters', MAX_QUERY_PARAMS, searchParams.size);
      for (const q of op.query) queryFlag(searchParams, q.name, q.default);
      if (op.body?.kind === 'image-upload') {
        const req = request.raw;
        if (hasBody(req)) refuseUnsupportedCodings(req);
        if (mediaType(req) !== 'multipart/form-data') {
          throw new HttpProblem(415, `expected a body of type multipart/form-data, got ${mediaType(req) || 'none'}`, { slug: 'unsupported-media-type' });
        }
      }
      state.call = { op, params, query: searchParams, req: request.raw, now: isoNow(), paging };
      done(null, payload);
    } catch (error) {
      done(error as Error);
    }
  };
}

/** A JSON body not read yet: `read()` reads it (once) under the server's caps. */
export class PendingBody {
  private reading: Promise<unknown> | undefined;

  constructor(private readonly start: () => Promise<unknown>) {}

  read(): Promise<unknown> {
    this.reading ??= this.start();
    return this.reading;
  }
}

/** The content-type parser of every media type: how the JSON body of an operation that takes one is read. */
export function parseBody(runtime: Runtime) {
  return function parseOperationBody(request: FastifyRequest, _payload: unknown, done: (error: Error | null, body?: unknown) => void): void {
    const target = request.routeOptions.config.target;
    if (target?.kind !== 'operation') return done(null, undefined); // admin endpoints read their own; others answer before
    const { body } = target.op;
    if (body === undefined) {
      request.raw.resume(); // the operation takes no body: discard whatever came
      return done(null, undefined);
    }
    if (body.kind === 'image-upload') return done(null, undefined); // the handler streams the parts (handlers/images.ts)
    const maxItems = ITEM_LIST_BODIES.has(body.kind) ? runtime.options.maxBulkItems : undefined;
    done(null, new PendingBody(() => readJsonBody(request.raw, runtime.options.maxBodyBytes, maxItems)));
  };
}

/**
 * Bodies of open JSON objects, whose every field is kept as sent. zod checks them but
 * builds its result by assignment, which drops a `__proto__` field; the parsed JSON
 * itself (own fields only, as `JSON.parse` makes them) is what the handlers get.
 */
const OPEN_BODIES: ReadonlySet<BodyKind> = new Set(['record', 'records', 'task-filter', 'work-order']);

/** The `ignored` of a call without a body: shared, never changed. */
const NONE_IGNORED: readonly string[] = [];

/** The body's fields the DTO schema does not know (dropped, as Jackson drops them), as `body.<name>`. */
function ignoredFields(kind: BodyKind, raw: unknown): string[] {
  const schema = DTO_SCHEMAS[kind];
  if (!schema || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
  return Object.keys(raw)
    .filter((name) => !Object.hasOwn(schema.shape, name))
    .map((name) => `body.${name}`);
}

/** The call of a request whose parameters were read, its parsed body checked against the row's schema. */
export function operationCall(runtime: Runtime, read: Omit<OperationCall, 'body' | 'ignored'>, raw: unknown): OperationCall {
  const { op } = read;
  const call = (body: unknown, ignored: readonly string[] = NONE_IGNORED): OperationCall => ({ ...read, body, ignored });
  if (op.body === undefined || op.body.kind === 'image-upload') return call(undefined);
  const { kind, required } = op.body;
  // An optional collection sent empty means what no body means (spec 4.3: bodies optional).
  if (!required && Array.isArray(raw) && raw.length === 0) return call(undefined);
  if (raw === undefined && required) throw badField('body', 'a request body is required');
  if (raw === undefined) return call(undefined);
  const checked = validate(bodySchemaFor(kind, op.resource, runtime.options.lenient), raw, 'body');
  return call(OPEN_BODIES.has(kind) ? raw : checked, ignoredFields(kind, raw));
}
