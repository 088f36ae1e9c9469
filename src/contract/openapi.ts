/**
 * The OpenAPI 3.1 document of the service, derived from the contract table and
 * the zod schemas: `pla openapi` prints it, the local server serves it at
 * `/openapi.json`. Nothing here spells a path; every entry comes from a row.
 */
import { z } from 'zod';
import { OPERATIONS, type Operation } from './operations.js';
import { BODY_SCHEMAS, DEFAULT_MAX_PAGE_SIZE, accountingRecord, emailNotificationDto, imageDto, notificationDto } from './schemas.js';
import type { BodyKind, PagingSpec, PathParamType, ResponseKind } from './types.js';

declare const __PLA_VERSION__: string | undefined;

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** JSON Schema of a zod schema (draft 2020-12, which OpenAPI 3.1 uses). */
function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Json;
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
    ...Object.fromEntries(['createdBy', 'title', 'forUserId', 'byUserId', 'message', 'redirectTo', 'displayId', 'createdTime', 'type'].map((f) => [f, { type: 'string' }])),
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
const RECORD_PAGE: Json = {
  type: 'object',
  properties: {
    content: { type: 'array', items: ref('AccountingRecord') },
    page: { type: 'object', properties: { size: int, totalElements: int, totalPages: int, number: int } },
  },
};

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

/** What each body kind is named in `components.schemas`. */
const BODY_NAMES: Record<Exclude<BodyKind, 'image-upload'>, string> = {
  record: 'AccountingRecord',
  records: 'AccountingRecords',
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

function responseSchema(op: Operation): Json | undefined {
  const kinds: Record<ResponseKind, Json | undefined> = {
    single: envelope(ref('AccountingRecord')),
    list: envelope({ type: 'array', items: ref('AccountingRecord') }),
    void: envelope({ type: 'null' }),
    page: RECORD_PAGE,
    'notification-page': ref('PageNotificationDTO'),
    'count-map': { type: 'object', additionalProperties: { type: 'integer', format: 'int64' } },
    array: { type: 'array', items: ref(ARRAY_ITEMS[op.resource] ?? 'AccountingRecord') },
    schema: { type: 'object', description: 'metadata; the spec does not show its schema' },
    none: undefined,
  };
  return kinds[op.response];
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

function requestBody(op: Operation): Json | undefined {
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
  return { required: op.body.required, content: { 'application/json': { schema: ref(BODY_NAMES[op.body.kind]) } } };
}

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'invalid request (bad body, parameter, negative page, page size too large)',
  '401': 'API key missing, invalid, expired or revoked',
  '403': 'API key valid without the needed permission',
  '404': 'unknown id or path',
  '429': 'rate limit exceeded; retry after Retry-After',
  '500': 'server error; retry with backoff',
};

function operationObject(op: Operation): Json {
  const parameters: Json[] = [
    ...op.pathParams.map((p) => ({ name: p.name, in: 'path', required: true, schema: PATH_PARAM_SCHEMAS[p.type] })),
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
  const body = requestBody(op);
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
}

/** Builds the whole document; cheap enough to build per request. */
export function createOpenApiDocument(options: OpenApiOptions = {}): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    (paths[op.path] as Json)[op.method.toLowerCase()] = operationObject(op);
  }
  const bodySchemas = Object.fromEntries(
    (Object.keys(BODY_NAMES) as Array<keyof typeof BODY_NAMES>).map((kind) => [BODY_NAMES[kind], jsonSchema(BODY_SCHEMAS[kind])]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Portfolio and Lease Accounting Service',
      version: typeof __PLA_VERSION__ === 'string' ? __PLA_VERSION__ : '0.0.0',
      description: 'Derived from the pla contract table (52 operations).',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      schemas: {
        ...bodySchemas,
        AccountingRecord: jsonSchema(accountingRecord),
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
