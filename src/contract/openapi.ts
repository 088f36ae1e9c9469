/**
 * The OpenAPI 3.1 document of the service, derived from the contract table and
 * the zod schemas: `pla openapi` prints it, the local server serves it at
 * `/openapi.json`. Nothing here spells a path; every entry comes from a row.
 */
import { z } from 'zod';
import { OPERATIONS, type Operation } from './operations.js';
import {
  BODY_SCHEMAS,
  DEFAULT_MAX_PAGE_SIZE,
  RECORD_TYPE_NAMES,
  emailNotificationDto,
  imageDto,
  int64,
  notificationDto,
  typedRecord,
  type RecordResource,
} from './schemas.js';
import { DEFAULT_MAX_BULK_ITEMS, ITEM_LIST_BODIES } from './limits.js';
import type { BodyKind, PagingSpec, PathParamType, ResponseKind } from './types.js';

declare const __PLA_VERSION__: string | undefined;

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * JSON Schema of a zod schema (draft 2020-12, which OpenAPI 3.1 uses). An int64 id
 * is a number or, past 2^53, a BigInt the server's JSON reader makes: on the wire
 * both are one JSON integer, so it is written as one (zod would write the BigInt
 * branch as `{}`, which accepts anything).
 */
function jsonSchema(schema: z.ZodType): Json {
  const converted = z.toJSONSchema(schema, {
    unrepresentable: 'any',
    io: 'input',
    override(ctx) {
      if (ctx.zodSchema !== int64) return;
      for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Json)[key];
      Object.assign(ctx.jsonSchema, { type: 'integer', format: 'int64', minimum: 0 });
    },
  }) as Json;
  const { $schema: _ignored, ...rest } = converted;
  return rest;
}

/** Fields every notification-side DTO starts with (spec 2.1–2.6). */
const DTO_FIELDS: Json = {
  createdDate: { type: 'string', format: 'date-time' },
  lastModifiedDate: { type: 'string', format: 'date-time' },
  id: { type: 'integer', format: 'int64' },
};

const CAPTION_VALUE: Json = {
  type: 'object',
  properties: {
    ...DTO_FIELDS,
    langCode: { type: 'string' },
    value: { type: 'string' },
  },
};

const TOPIC: Json = {
  type: 'object',
  properties: {
    ...DTO_FIELDS,
    code: { type: 'string' },
    service: { type: 'string' },
    captionValues: { type: 'array', items: ref('CaptionValueDto') },
  },
};

const NOTIFICATION_ITEM: Json = {
  type: 'object',
  properties: {
    id: { type: 'integer', format: 'int64' },
    createdAt: { type: 'string', format: 'date-time' },
    read: { type: 'boolean' },
    ...Object.fromEntries(
      ['createdBy', 'title', 'forUserId', 'byUserId', 'message', 'redirectTo', 'displayId', 'createdTime', 'type'].map((f) => [f, { type: 'string' }]),
    ),
  },
};

const SORT_INFO: Json = { type: 'object', properties: { unsorted: { type: 'boolean' }, sorted: { type: 'boolean' }, empty: { type: 'boolean' } } };

const int = { type: 'integer' };

/** Shape A of spec 2.3: the flat notification page. */
const NOTIFICATION_PAGE: Json = {
  type: 'object',
  properties: {
    content: { type: 'array', items: ref('NotificationListItem') },
    totalPages: int,
    totalElements: int,
    numberOfElements: int,
    size: int,
    number: int,
    first: { type: 'boolean' },
    last: { type: 'boolean' },
    empty: { type: 'boolean' },
    sort: SORT_INFO,
    pageable: {
      type: 'object',
      properties: { paged: { type: 'boolean' }, unpaged: { type: 'boolean' }, pageNumber: int, pageSize: int, offset: int, sort: SORT_INFO },
    },
  },
};

/** Shape B of spec 2.3: content plus a `page` object. */
const recordPage = (record: Json): Json => ({
  type: 'object',
  properties: {
    content: { type: 'array', items: record },
    page: { type: 'object', properties: { size: int, totalElements: int, totalPages: int, number: int } },
  },
});

/** The local server's envelope (DESIGN.md); the spec leaves its fields unshown. */
const envelope = (data: Json): Json => ({
  type: 'object',
  properties: { success: { type: 'boolean' }, message: { type: 'string' }, data },
});

const PROBLEM: Json = {
  type: 'object',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: int,
    detail: { type: 'string' },
    instance: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
  },
};

/** What each body kind is named in `components.schemas` (records: per resource, below). */
const BODY_NAMES: Record<Exclude<BodyKind, 'image-upload' | 'record' | 'records'>, string> = {
  ids: 'IdList',
  'task-filter': 'TaskFilter',
  notification: 'NotificationDto',
  'email-notification': 'EmailNotificationDto',
  'work-order': 'WorkOrder',
};

/** Items of the bare arrays the notification side answers with, by resource. */
const ARRAY_ITEMS: Partial<Record<Operation['resource'], string>> = {
  notifications: 'NotificationDto',
  'email-notifications': 'EmailNotificationDto',
  topics: 'TopicDto',
};

/** The accounting resources, whose records are typed per resource (schemas.ts). */
const RECORD_RESOURCES = Object.keys(RECORD_TYPE_NAMES) as RecordResource[];

/** The record schema an operation of `resource` sends and answers with. */
function recordName(resource: Operation['resource']): string {
  if (!(RECORD_RESOURCES as string[]).includes(resource)) throw new Error(`no record schema for ${resource}`);
  return RECORD_TYPE_NAMES[resource as RecordResource];
}

/** `/api/notifications/{id}` → `/api/notifications/{}`: what OpenAPI tells paths apart by. */
const shapeOf = (path: string): string => path.replace(/\{\w+\}/g, '{}');

/**
 * The spec names one position differently on paths that are otherwise the same
 * (`GET /api/notifications/{userName}`, `DELETE /api/notifications/{id}`); OpenAPI
 * allows one path template for both. Such a parameter gets one name made of all of
 * them (`userNameOrId`), and each operation's description says which it means.
 */
function documentNames(operations: readonly Operation[]): Map<string, Map<string, string>> {
  const byShape = new Map<string, string[][]>();
  for (const op of operations) {
    const names = op.path.match(/\{\w+\}/g)?.map((p) => p.slice(1, -1)) ?? [];
    const seen = byShape.get(shapeOf(op.path)) ?? names.map(() => []);
    names.forEach((name, i) => seen[i]?.includes(name) || seen[i]?.push(name));
    byShape.set(shapeOf(op.path), seen);
  }
  const renames = new Map<string, Map<string, string>>();
  for (const [shape, positions] of byShape) {
    const map = new Map<string, string>();
    for (const names of positions) {
      const joined = names.map((name, i) => (i === 0 ? name : name[0]?.toUpperCase() + name.slice(1))).join('Or');
      for (const name of names) map.set(name, joined);
    }
    renames.set(shape, map);
  }
  return renames;
}

function responseSchema(op: Operation): Json | undefined {
  // Built on demand: the accounting resources have a record schema; the others name their DTO in ARRAY_ITEMS
  // (so a new `single` or `list` operation of topics, say, documents itself without a crash).
  const item = ARRAY_ITEMS[op.resource];
  const record = () => ref(item ?? recordName(op.resource));
  const kinds: Record<ResponseKind, () => Json | undefined> = {
    single: () => envelope(record()),
    list: () => envelope({ type: 'array', items: record() }),
    void: () => envelope({ type: 'null' }),
    page: () => recordPage(record()),
    'notification-page': () => ref('PageNotificationDTO'),
    'count-map': () => ({ type: 'object', additionalProperties: { type: 'integer', format: 'int64' } }),
    array: () => ({ type: 'array', items: record() }),
    schema: () => ({ type: 'object', description: 'metadata; the spec does not show its schema' }),
    none: () => undefined,
  };
  return kinds[op.response]();
}

const PATH_PARAM_SCHEMAS: Record<PathParamType, Json> = {
  int64: { type: 'integer', format: 'int64', minimum: 1 },
  integer: { type: 'integer', minimum: 1 },
  string: { type: 'string', minLength: 1 },
  'date-time': { type: 'string', format: 'date-time' },
  'int64-or-string': { oneOf: [{ type: 'integer', format: 'int64' }, { type: 'string' }] },
};

function pagingParameters(paging: PagingSpec): Json[] {
  const { defaultSize } = paging;
  const params: Json[] = [
    { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 }, description: 'zero-based page' },
    { name: 'size', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: DEFAULT_MAX_PAGE_SIZE, default: defaultSize } },
  ];
  if (paging.sortable) {
    params.push({
      name: 'sort',
      in: 'query',
      required: false,
      schema: { type: 'array', items: { type: 'string' } },
      style: 'form',
      explode: true,
      description: 'property,(asc|desc); several allowed',
    });
  }
  return params;
}

function requestBody(op: Operation, maxBulkItems: number): Json | undefined {
  if (!op.body) return undefined;
  if (op.body.kind === 'image-upload') {
    return {
      required: op.body.required,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', required: ['file', 'image'], properties: { file: { type: 'string', format: 'binary' }, image: ref('ImageDto') } },
          encoding: { image: { contentType: 'application/json' } },
        },
      },
    };
  }
  const { kind } = op.body;
  const record = () => ref(recordName(op.resource));
  const schema =
    kind === 'record' ? record() : kind === 'records' ? { type: 'array', minItems: 1, maxItems: maxBulkItems, items: record() } : ref(BODY_NAMES[kind]);
  return { required: op.body.required, content: { 'application/json': { schema } } };
}

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'invalid request (bad body, parameter, negative page, page size too large)',
  '401': 'API key missing, invalid, expired or revoked',
  '403': 'API key valid without the needed permission',
  '404': 'unknown id or path',
  '429': 'rate limit exceeded; retry after Retry-After',
  '500': 'server error; retry with backoff',
};

/** The path of `op` in the document, under the parameter names `rename` gives. */
function documentPath(op: Operation, rename: ReadonlyMap<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_whole, name: string) => `{${rename.get(name) ?? name}}`);
}

function operationObject(op: Operation, rename: ReadonlyMap<string, string>, maxBulkItems: number): Json {
  const pathParameter = (p: Operation['pathParams'][number]): Json => {
    const name = rename.get(p.name) ?? p.name;
    return {
      name,
      in: 'path',
      required: true,
      schema: PATH_PARAM_SCHEMAS[p.type],
      ...(name === p.name ? {} : { description: `the ${p.name} (spec: {${p.name}})` }),
    };
  };
  const parameters: Json[] = [
    ...op.pathParams.map(pathParameter),
    ...op.query.map((q) => ({ name: q.name, in: 'query', required: false, schema: { type: 'boolean', default: q.default }, description: q.description })),
    ...(op.paging ? pagingParameters(op.paging) : []),
  ];
  const schema = responseSchema(op);
  const success: Json = { description: op.summary, ...(schema ? { content: { 'application/json': { schema } } } : {}) };
  if (op.id === 'images.upload') success.headers = { Location: { description: 'the new image', schema: { type: 'string' } } };
  const responses: Json = { [String(op.status)]: success };
  for (const alt of op.altStatuses ?? []) responses[String(alt)] = { description: `${op.summary} (as the other listing answers)` };
  for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
    responses[status] = { description, content: { 'application/problem+json': { schema: ref('Problem') } } };
  }
  if (op.body && ITEM_LIST_BODIES.has(op.body.kind)) {
    responses['413'] = {
      description: `more than ${maxBulkItems} items (maxItems), or a body larger than the server's limit`,
      content: { 'application/problem+json': { schema: ref('Problem') } },
    };
  }
  const body = requestBody(op, maxBulkItems);
  return {
    operationId: op.id,
    summary: op.summary,
    tags: [op.resource],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    'x-permission': op.permission,
    ...(op.destructive ? { 'x-destructive': true } : {}),
  };
}

export interface OpenApiOptions {
  /** Base URL to list under `servers`. */
  serverUrl?: string;
  /** Items one bulk request may carry (`maxItems`); default the local server's default. */
  maxBulkItems?: number;
}

/** Builds the whole document; cheap enough to build per request. */
export function createOpenApiDocument(options: OpenApiOptions = {}): Json {
  const paths: Record<string, Json> = {};
  const maxBulkItems = options.maxBulkItems ?? DEFAULT_MAX_BULK_ITEMS;
  const renames = documentNames(OPERATIONS);
  for (const op of OPERATIONS) {
    const rename = renames.get(shapeOf(op.path)) ?? new Map<string, string>();
    const path = documentPath(op, rename);
    paths[path] ??= {};
    (paths[path] as Json)[op.method.toLowerCase()] = operationObject(op, rename, maxBulkItems);
  }
  const records = Object.fromEntries(RECORD_RESOURCES.map((resource) => [RECORD_TYPE_NAMES[resource], jsonSchema(typedRecord(resource))]));
  const bodySchemas = Object.fromEntries(
    (Object.keys(BODY_NAMES) as Array<keyof typeof BODY_NAMES>).map((kind) => [
      BODY_NAMES[kind],
      ITEM_LIST_BODIES.has(kind) ? { ...jsonSchema(BODY_SCHEMAS[kind]), maxItems: maxBulkItems } : jsonSchema(BODY_SCHEMAS[kind]),
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Portfolio and Lease Accounting Service',
      version: typeof __PLA_VERSION__ === 'string' ? __PLA_VERSION__ : '0.0.0',
      description: 'Derived from the pla contract table (52 operations).',
      // package.json says UNLICENSED: no licence is granted; SPDX names that with a LicenseRef.
      license: { name: 'Proprietary (UNLICENSED)', identifier: 'LicenseRef-Proprietary' },
    },
    // Without a known address, paths are relative to wherever the document is read from.
    servers: [{ url: options.serverUrl ?? '/' }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      schemas: {
        ...bodySchemas,
        ...records,
        NotificationDto: jsonSchema(notificationDto),
        EmailNotificationDto: jsonSchema(emailNotificationDto),
        ImageDto: jsonSchema(imageDto),
        TopicDto: TOPIC,
        CaptionValueDto: CAPTION_VALUE,
        NotificationListItem: NOTIFICATION_ITEM,
        PageNotificationDTO: NOTIFICATION_PAGE,
        Problem: PROBLEM,
      },
    },
  };
}
