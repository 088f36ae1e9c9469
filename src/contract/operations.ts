/**
 * The 52 operations of the service (spec sections 4.1–4.4), declared once as
 * typed data: `OperationId` is the union of the rows' ids, so a misspelt id
 * anywhere (`client.call`, a command declaration, the server's handler map) is a
 * compile error.
 *
 * Each row names its neighbours explicitly: `bulk` (the same for many records in
 * one request), `read` (the read of one record that `--dry-run` shows) and `list`
 * (the listing that pages through the collection); `paging` carries the page
 * style, shape and default size; `done` the past tense for messages.
 *
 * Determinations and financial settings share eleven operations, so those rows
 * are written once (`recordOperations`), typed by resource. `test/contract/
 * operations.test.ts` pins the table to the spec (docs/spec/service-interface.md):
 * exactly 52 method + path pairs.
 */
import type { BodyKind, HttpMethod, OperationRow, PagingSpec, PathParam, QueryParam, Resource, ResponseKind } from './types.js';

export const DETERMINATIONS_PREFIX = '/api/v1/asset-transaction-type-determinations';
export const SETTINGS_PREFIX = '/api/v1/system-financial-settings';
export const TASKS_PREFIX = '/api/v1/batch/mass-inter-company-transfer/tasks';

/** The page defaults of the spec, each stated once: 100 records a page, notifications 10. */
export const PAGING = {
  pageable: { style: 'pageable', shape: 'content+page', defaultSize: 100, sortable: true },
  search: { style: 'search', shape: 'content+page', defaultSize: 100, sortable: true },
  notifications: { style: 'notifications', shape: 'flat', defaultSize: 10, sortable: false },
} as const satisfies Record<string, PagingSpec>;

const ID: PathParam = { name: 'id', type: 'int64' };
const TASK_ID: PathParam = { name: 'id', type: 'integer' };
const USER: PathParam = { name: 'userName', type: 'string' };

/** The operations determinations and settings have in common (4.1 and 4.2). */
function recordOperations<const R extends 'determinations' | 'settings'>(resource: R, prefix: string) {
  const family = { resource, read: `${resource}.get`, list: `${resource}.list` } as const;
  return [
    { ...family, id: `${resource}.get`, summary: 'Get', method: 'GET', path: `${prefix}/{id}`, pathParams: [ID], response: 'single' },
    {
      ...family,
      id: `${resource}.update`,
      summary: 'Update',
      method: 'PUT',
      path: `${prefix}/{id}`,
      pathParams: [ID],
      body: { kind: 'record', required: true },
      response: 'single',
      bulk: `${resource}.updateBulk`,
      done: 'updated',
    },
    {
      ...family,
      id: `${resource}.delete`,
      summary: 'Delete',
      method: 'DELETE',
      path: `${prefix}/{id}`,
      pathParams: [ID],
      response: 'void',
      destructive: true,
      bulk: `${resource}.deleteBulk`,
      done: 'deleted',
    },
    {
      ...family,
      id: `${resource}.upsertBulk`,
      summary: 'Create or update bulk',
      method: 'PUT',
      path: `${prefix}/createOrUpdate/bulk`,
      body: { kind: 'records', required: true },
      response: 'list',
      done: 'upserted',
    },
    {
      ...family,
      id: `${resource}.upsert`,
      summary: 'Create or update',
      method: 'PUT',
      path: `${prefix}/createOrUpdate`,
      body: { kind: 'record', required: true },
      response: 'single',
      bulk: `${resource}.upsertBulk`,
      done: 'upserted',
    },
    {
      ...family,
      id: `${resource}.updateBulk`,
      summary: 'Bulk update',
      method: 'PUT',
      path: `${prefix}/bulk`,
      body: { kind: 'records', required: true },
      response: 'list',
      done: 'updated',
    },
    {
      ...family,
      id: `${resource}.createBulk`,
      summary: 'Bulk create',
      method: 'POST',
      path: `${prefix}/bulk`,
      body: { kind: 'records', required: true },
      response: 'list',
      done: 'created',
    },
    {
      ...family,
      id: `${resource}.deleteBulk`,
      summary: 'Bulk delete',
      method: 'DELETE',
      path: `${prefix}/bulk`,
      body: { kind: 'ids', required: true },
      response: 'void',
      destructive: true,
      done: 'deleted',
    },
    { ...family, id: `${resource}.list`, summary: 'Find all', method: 'GET', path: prefix, paging: PAGING.pageable, response: 'page' },
    {
      ...family,
      id: `${resource}.create`,
      summary: 'Create',
      method: 'POST',
      path: prefix,
      body: { kind: 'record', required: true },
      response: 'single',
      bulk: `${resource}.createBulk`,
      done: 'created',
    },
    { ...family, id: `${resource}.meta`, summary: 'Get metadata', method: 'GET', path: `${prefix}/meta`, response: 'schema' },
  ] as const satisfies readonly OperationRow[];
}

const DETERMINATION = { resource: 'determinations', read: 'determinations.get', list: 'determinations.list' } as const;
const TASK = { resource: 'tasks', read: 'tasks.get', list: 'tasks.list' } as const;
const NOTIFICATION = { resource: 'notifications' } as const;

/** Operations of 4.1 beyond the shared record operations: remove and decommission. */
const determinationLifecycle = [
  {
    ...DETERMINATION,
    id: 'determinations.remove',
    summary: 'Delete or decommission',
    method: 'PUT',
    path: `${DETERMINATIONS_PREFIX}/remove/{id}`,
    pathParams: [ID],
    response: 'void',
    destructive: true,
    bulk: 'determinations.removeBulk',
    done: 'removed',
  },
  {
    ...DETERMINATION,
    id: 'determinations.removeBulk',
    summary: 'Delete or decommission all',
    method: 'PUT',
    path: `${DETERMINATIONS_PREFIX}/remove/bulk`,
    body: { kind: 'ids', required: true },
    response: 'void',
    destructive: true,
    done: 'removed',
  },
  {
    ...DETERMINATION,
    id: 'determinations.decommission',
    summary: 'Decommission',
    method: 'PUT',
    path: `${DETERMINATIONS_PREFIX}/decommission/{id}`,
    pathParams: [ID],
    response: 'single',
    destructive: true,
    bulk: 'determinations.decommissionBulk',
    done: 'decommissioned',
  },
  {
    ...DETERMINATION,
    id: 'determinations.decommissionModifiedBefore',
    summary: 'Decommission by modification date before',
    method: 'PUT',
    path: `${DETERMINATIONS_PREFIX}/decommission/modified-before/{modified_before}`,
    pathParams: [{ name: 'modified_before', type: 'date-time' }],
    response: 'list',
    destructive: true,
    done: 'decommissioned',
  },
  {
    ...DETERMINATION,
    id: 'determinations.decommissionBeforeNow',
    summary: 'Decommission before now',
    method: 'PUT',
    path: `${DETERMINATIONS_PREFIX}/decommission/modified-before-now`,
    response: 'list',
    destructive: true,
    done: 'decommissioned',
  },
  {
    ...DETERMINATION,
    id: 'determinations.decommissionBulk',
    summary: 'Decommission all',
    method: 'PUT',
    path: `${DETERMINATIONS_PREFIX}/decommission/bulk`,
    body: { kind: 'ids', required: true },
    response: 'list',
    destructive: true,
    done: 'decommissioned',
  },
] as const satisfies readonly OperationRow[];

/** 4.3: transfer task bodies are optional (required = false in the spec). */
const taskOperations = [
  { ...TASK, id: 'tasks.get', summary: 'Get by id', method: 'GET', path: `${TASKS_PREFIX}/{id}`, pathParams: [TASK_ID], response: 'single' },
  {
    ...TASK,
    id: 'tasks.update',
    summary: 'Update',
    method: 'PUT',
    path: `${TASKS_PREFIX}/{id}`,
    pathParams: [TASK_ID],
    body: { kind: 'record', required: false },
    response: 'single',
    bulk: 'tasks.updateBulk',
    done: 'updated',
  },
  {
    ...TASK,
    id: 'tasks.upsertBulk',
    summary: 'Bulk upsert',
    method: 'PUT',
    path: `${TASKS_PREFIX}/createOrUpdate/bulk`,
    body: { kind: 'records', required: false },
    response: 'list',
    done: 'upserted',
  },
  {
    ...TASK,
    id: 'tasks.upsert',
    summary: 'Upsert',
    method: 'PUT',
    path: `${TASKS_PREFIX}/createOrUpdate`,
    body: { kind: 'record', required: false },
    response: 'single',
    bulk: 'tasks.upsertBulk',
    done: 'upserted',
  },
  {
    ...TASK,
    id: 'tasks.updateBulk',
    summary: 'Bulk update',
    method: 'PUT',
    path: `${TASKS_PREFIX}/bulk`,
    body: { kind: 'records', required: false },
    response: 'list',
    done: 'updated',
  },
  {
    ...TASK,
    id: 'tasks.search',
    summary: 'Search',
    method: 'POST',
    path: `${TASKS_PREFIX}/search`,
    paging: PAGING.search,
    body: { kind: 'task-filter', required: false },
    response: 'page',
  },
  {
    ...TASK,
    id: 'tasks.cancel',
    summary: 'Cancel',
    method: 'POST',
    path: `${TASKS_PREFIX}/cancel/{id}`,
    pathParams: [TASK_ID],
    response: 'none',
    destructive: true,
    bulk: 'tasks.cancelBulk',
    done: 'cancelled',
  },
  {
    ...TASK,
    id: 'tasks.cancelBulk',
    summary: 'Bulk cancel',
    method: 'POST',
    path: `${TASKS_PREFIX}/cancel/bulk`,
    body: { kind: 'ids', required: false },
    response: 'none',
    destructive: true,
    done: 'cancelled',
  },
  { ...TASK, id: 'tasks.list', summary: 'List all', method: 'GET', path: TASKS_PREFIX, paging: PAGING.pageable, response: 'page' },
] as const satisfies readonly OperationRow[];

/**
 * 4.4, notification records. Where the two listings differ the row says which was
 * chosen. There is no read of one notification and no bulk endpoint.
 */
const notificationOperations = [
  // Listings disagree on the id type (int64 vs string): accept either.
  {
    ...NOTIFICATION,
    id: 'notifications.markRead',
    summary: 'Mark notification read',
    method: 'POST',
    path: '/api/notifications/{id}/read',
    pathParams: [{ name: 'id', type: 'int64-or-string' }],
    response: 'none',
    done: 'marked read',
  },
  {
    ...NOTIFICATION,
    id: 'notifications.workOrder',
    summary: 'Notify work order created',
    method: 'POST',
    path: '/api/notifications/workorder',
    body: { kind: 'work-order', required: true },
    response: 'none',
    done: 'notified',
  },
  {
    ...NOTIFICATION,
    id: 'notifications.countByType',
    summary: 'Unread count by type',
    method: 'GET',
    path: '/api/notifications/{username}/count-by-type',
    pathParams: [{ name: 'username', type: 'string' }],
    response: 'count-map',
  },
  {
    ...NOTIFICATION,
    id: 'notifications.list',
    summary: 'Get notifications',
    method: 'GET',
    path: '/api/notifications/{userName}',
    pathParams: [USER],
    paging: PAGING.notifications,
    response: 'notification-page',
  },
  {
    ...NOTIFICATION,
    id: 'notifications.listMobile',
    summary: 'Get mobile notifications',
    method: 'GET',
    path: '/api/notifications/{userName}/for-mobile',
    pathParams: [USER],
    paging: PAGING.notifications,
    response: 'notification-page',
  },
  {
    ...NOTIFICATION,
    id: 'notifications.countMobile',
    summary: 'Unread mobile notification count',
    method: 'GET',
    path: '/api/notifications/{userName}/for-mobile/count',
    pathParams: [USER],
    response: 'count-map',
  },
  {
    ...NOTIFICATION,
    id: 'notifications.count',
    summary: 'Notification count',
    method: 'GET',
    path: '/api/notifications/{userName}/count',
    pathParams: [USER],
    query: [{ name: 'unread', type: 'boolean', default: false, description: 'count only unread notifications' }],
    response: 'count-map',
  },
  {
    ...NOTIFICATION,
    id: 'notifications.deleteAll',
    summary: 'Delete all of a user',
    method: 'DELETE',
    path: '/api/notifications/{userName}/all',
    pathParams: [USER],
    response: 'none',
    destructive: true,
    done: 'deleted',
  },
  // One listing answers 200, the other 204: the local server answers 200, the client accepts both.
  {
    ...NOTIFICATION,
    id: 'notifications.delete',
    summary: 'Delete notification',
    method: 'DELETE',
    path: '/api/notifications/{id}',
    pathParams: [{ name: 'id', type: 'int64-or-string' }],
    response: 'none',
    altStatuses: [204],
    destructive: true,
    done: 'deleted',
  },
  {
    ...NOTIFICATION,
    id: 'notifications.create',
    summary: 'Create notification',
    method: 'POST',
    path: '/api/notifications',
    body: { kind: 'notification', required: true },
    response: 'array',
    status: 201,
    done: 'created',
  },
] as const satisfies readonly OperationRow[];

const otherNotificationSide = [
  {
    resource: 'email-notifications',
    id: 'email-notifications.create',
    summary: 'Create email notification',
    method: 'POST',
    path: '/api/email-notifications',
    body: { kind: 'email-notification', required: true },
    response: 'array',
    status: 201,
    done: 'sent',
  },
  {
    resource: 'email-notifications',
    id: 'email-notifications.delete',
    summary: 'Delete email notification',
    method: 'DELETE',
    path: '/api/email-notifications/{id}',
    pathParams: [ID],
    response: 'none',
    status: 204,
    destructive: true,
    done: 'deleted',
  },
  // The spec's body is "optional as a whole" but both parts are required: the server needs both.
  {
    resource: 'images',
    id: 'images.upload',
    summary: 'Upload image',
    method: 'POST',
    path: '/api/images',
    body: { kind: 'image-upload', required: true },
    response: 'none',
    status: 201,
    done: 'uploaded',
  },
  {
    resource: 'images',
    id: 'images.delete',
    summary: 'Delete image',
    method: 'DELETE',
    path: '/api/images/{id}',
    pathParams: [ID],
    response: 'none',
    status: 204,
    destructive: true,
    done: 'deleted',
  },
  {
    resource: 'topics',
    id: 'topics.list',
    summary: 'Find topics',
    method: 'GET',
    path: '/api/topics/{service}',
    pathParams: [{ name: 'service', type: 'string' }],
    response: 'array',
  },
] as const satisfies readonly OperationRow[];

/** The table as written, in spec order. */
const ROWS = [
  ...recordOperations('determinations', DETERMINATIONS_PREFIX),
  ...determinationLifecycle,
  ...recordOperations('settings', SETTINGS_PREFIX),
  ...taskOperations,
  ...notificationOperations,
  ...otherNotificationSide,
] as const;

type Row = (typeof ROWS)[number];

/** The id of every operation of the contract: `'determinations.get' | 'tasks.cancelBulk' | …`. */
export type OperationId = Row['id'];

/** The operations that change records: those whose row says what they did (`done`). */
export type WritingOperationId = Extract<Row, { done: string }>['id'];

/** Every operation another row names (bulk, read, list); resolved by the compiler below. */
type NamedByARow = Extract<Row, { bulk: string }>['bulk'] | Extract<Row, { read: string }>['read'] | Extract<Row, { list: string }>['list'];
/** Fails to compile when a row names an operation that the table does not have. */
const everyNamedOperationExists: [NamedByARow] extends [OperationId] ? true : never = true;
void everyNamedOperationExists;

/** A row of the contract table with its defaults filled in; `operation(id)` returns these. */
export interface Operation {
  readonly id: OperationId;
  readonly resource: Resource;
  readonly summary: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly pathParams: readonly PathParam[];
  readonly query: readonly QueryParam[];
  readonly paging?: PagingSpec;
  readonly body?: { readonly kind: BodyKind; readonly required: boolean };
  readonly response: ResponseKind;
  readonly status: 200 | 201 | 204;
  readonly altStatuses?: readonly number[];
  /** Permission a key needs, `<resource>:read|write`. */
  readonly permission: string;
  readonly destructive: boolean;
  readonly bulk?: OperationId;
  readonly read?: OperationId;
  readonly list?: OperationId;
  readonly done?: string;
}

/** A row with its defaults filled in; reads need `<resource>:read`, the rest `<resource>:write`. */
function complete(row: OperationRow & { id: OperationId }): Operation {
  const reads = row.method === 'GET' || row.id.endsWith('.search');
  return {
    pathParams: [],
    query: [],
    status: 200,
    destructive: false,
    permission: `${row.resource}:${reads ? 'read' : 'write'}`,
    ...(row as Omit<Operation, 'pathParams' | 'query' | 'status' | 'destructive' | 'permission'>),
  };
}

/** Every operation of the service, in spec order. */
export const OPERATIONS: readonly Operation[] = ROWS.map(complete);

const byId = new Map<string, Operation>(OPERATIONS.map((op) => [op.id, op]));

/** The row of an operation. The compiler checks the id; the run-time check guards ids read from files. */
export function operation(id: OperationId): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`unknown operation ${id}`);
  return op;
}

/** What a writing operation did to a record, in the past tense: `deleted`, `cancelled`. */
export function pastTense(id: WritingOperationId): string {
  return operation(id).done ?? id;
}

/** Whether an operation takes records away (delete, remove): a record gone is what it wants (`--ignore-not-found`). */
export function removesRecords(id: OperationId): boolean {
  const { done } = operation(id);
  return done === 'deleted' || done === 'removed';
}

/**
 * Each resource's operations under the verbs commands, plans and undo know them
 * by. Explicit, so no code builds an id from a resource and a verb; their bulk
 * counterparts, reads and listings are the rows' own fields.
 */
export const RESOURCE_VERBS = {
  determinations: {
    get: 'determinations.get',
    list: 'determinations.list',
    create: 'determinations.create',
    update: 'determinations.update',
    upsert: 'determinations.upsert',
    delete: 'determinations.delete',
    remove: 'determinations.remove',
    decommission: 'determinations.decommission',
    meta: 'determinations.meta',
  },
  settings: {
    get: 'settings.get',
    list: 'settings.list',
    create: 'settings.create',
    update: 'settings.update',
    upsert: 'settings.upsert',
    delete: 'settings.delete',
    meta: 'settings.meta',
  },
  // Tasks are made by the service: no create, no delete.
  tasks: { get: 'tasks.get', list: 'tasks.list', update: 'tasks.update', upsert: 'tasks.upsert', cancel: 'tasks.cancel', search: 'tasks.search' },
  notifications: {
    list: 'notifications.list',
    create: 'notifications.create',
    delete: 'notifications.delete',
    markRead: 'notifications.markRead',
    workOrder: 'notifications.workOrder',
  },
  'email-notifications': { create: 'email-notifications.create', delete: 'email-notifications.delete' },
  images: { upload: 'images.upload', delete: 'images.delete' },
  topics: { list: 'topics.list' },
} as const satisfies Record<Resource, Record<string, OperationId>>;

/** The operation `resource` (a resource name, perhaps read from a file) has for `verb`, if any. */
export function verbOperation(resource: string, verb: string): Operation | undefined {
  const verbs: Partial<Record<string, OperationId>> | undefined = (RESOURCE_VERBS as Partial<Record<string, Partial<Record<string, OperationId>>>>)[resource];
  const id = verbs?.[verb];
  return id === undefined ? undefined : operation(id);
}

/** Verb of each operation and of its bulk counterpart, from the table above. */
const VERB_OF = new Map<OperationId, string>(
  Object.values(RESOURCE_VERBS).flatMap((verbs) =>
    Object.entries(verbs).flatMap(([verb, id]: [string, OperationId]) => {
      const bulk = operation(id).bulk;
      return bulk ? [[id, verb] as const, [bulk, verb] as const] : [[id, verb] as const];
    }),
  ),
);

/** The verb an operation is known by, its bulk counterpart's too: `determinations.upsertBulk` → `upsert`. */
export function verbOf(id: OperationId): string | undefined {
  return VERB_OF.get(id);
}

/** The bulk operation `verb` of `resource` sends many records or ids through, if it has one. */
export function bulkOperation(resource: string, verb: string): OperationId | undefined {
  return verbOperation(resource, verb)?.bulk;
}

/** How the current state of `resource` is read: one record by id, and the listing by pages; `undefined` when it cannot be. */
export function stateSource(resource: string): { get: OperationId; list: OperationId } | undefined {
  const op = verbOperation(resource, 'get');
  return op?.read && op.list ? { get: op.read, list: op.list } : undefined;
}

/** Whether `id` (read from a checkpoint, a plan file …) names an operation of the contract. */
export function isOperationId(id: string): id is OperationId {
  return byId.has(id);
}

/** Fills `{param}` placeholders, URL-encoding each value. */
export function expandPath(op: Operation, params: Record<string, string | number | bigint> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`${op.id}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
