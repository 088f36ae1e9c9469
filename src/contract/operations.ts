/**
 * The 52 operations of the service (spec sections 4.1–4.4), declared once.
 *
 * Determinations and financial settings share eleven operations, so those rows are
 * built by one function (`recordOperations`); everything else is written out as
 * the spec's tables give it. `test/contract/operations.test.ts` pins the result to
 * the spec: exactly 52 method + path pairs.
 */
import type { BodyKind, HttpMethod, Operation, Paging, PathParam, Resource, ResponseKind } from './types.js';

export const DETERMINATIONS_PREFIX = '/api/v1/asset-transaction-type-determinations';
export const SETTINGS_PREFIX = '/api/v1/system-financial-settings';
export const TASKS_PREFIX = '/api/v1/batch/mass-inter-company-transfer/tasks';

const ID: PathParam = { name: 'id', type: 'int64' };

interface RowInput {
  id: string;
  summary: string;
  method: HttpMethod;
  path: string;
  pathParams?: PathParam[];
  query?: Operation['query'];
  paging?: Paging;
  body?: { kind: BodyKind; required: boolean };
  response: ResponseKind;
  status?: 200 | 201 | 204;
  altStatuses?: number[];
  destructive?: boolean;
}

function row(resource: Resource, input: RowInput): Operation {
  const reads = input.method === 'GET' || input.id.endsWith('.search');
  return {
    resource,
    pathParams: [],
    query: [],
    status: 200,
    destructive: false,
    permission: `${resource}:${reads ? 'read' : 'write'}`,
    ...input,
  };
}

/** The operations determinations and settings have in common (4.1 and 4.2). */
function recordOperations(resource: 'determinations' | 'settings', prefix: string): Operation[] {
  const r = (input: RowInput) => row(resource, { ...input, id: `${resource}.${input.id}` });
  return [
    r({ id: 'get', summary: 'Get', method: 'GET', path: `${prefix}/{id}`, pathParams: [ID], response: 'single' }),
    r({ id: 'update', summary: 'Update', method: 'PUT', path: `${prefix}/{id}`, pathParams: [ID], body: { kind: 'record', required: true }, response: 'single' }),
    r({ id: 'delete', summary: 'Delete', method: 'DELETE', path: `${prefix}/{id}`, pathParams: [ID], response: 'void', destructive: true }),
    r({ id: 'upsertBulk', summary: 'Create or update bulk', method: 'PUT', path: `${prefix}/createOrUpdate/bulk`, body: { kind: 'records', required: true }, response: 'list' }),
    r({ id: 'upsert', summary: 'Create or update', method: 'PUT', path: `${prefix}/createOrUpdate`, body: { kind: 'record', required: true }, response: 'single' }),
    r({ id: 'updateBulk', summary: 'Bulk update', method: 'PUT', path: `${prefix}/bulk`, body: { kind: 'records', required: true }, response: 'list' }),
    r({ id: 'createBulk', summary: 'Bulk create', method: 'POST', path: `${prefix}/bulk`, body: { kind: 'records', required: true }, response: 'list' }),
    r({ id: 'deleteBulk', summary: 'Bulk delete', method: 'DELETE', path: `${prefix}/bulk`, body: { kind: 'ids', required: true }, response: 'void', destructive: true }),
    r({ id: 'list', summary: 'Find all', method: 'GET', path: prefix, paging: 'pageable', response: 'page' }),
    r({ id: 'create', summary: 'Create', method: 'POST', path: prefix, body: { kind: 'record', required: true }, response: 'single' }),
    r({ id: 'meta', summary: 'Get metadata', method: 'GET', path: `${prefix}/meta`, response: 'schema' }),
  ];
}

const d = (input: RowInput) => row('determinations', { ...input, id: `determinations.${input.id}` });
const t = (input: RowInput) => row('tasks', { ...input, id: `tasks.${input.id}` });
const TASK_ID: PathParam = { name: 'id', type: 'integer' };

/** Operations of 4.1 beyond the shared record operations: remove and decommission. */
const determinationLifecycle: Operation[] = [
  d({ id: 'remove', summary: 'Delete or decommission', method: 'PUT', path: `${DETERMINATIONS_PREFIX}/remove/{id}`, pathParams: [ID], response: 'void', destructive: true }),
  d({ id: 'removeBulk', summary: 'Delete or decommission all', method: 'PUT', path: `${DETERMINATIONS_PREFIX}/remove/bulk`, body: { kind: 'ids', required: true }, response: 'void', destructive: true }),
  d({ id: 'decommission', summary: 'Decommission', method: 'PUT', path: `${DETERMINATIONS_PREFIX}/decommission/{id}`, pathParams: [ID], response: 'single', destructive: true }),
  d({
    id: 'decommissionModifiedBefore',
    summary: 'Decommission by modification date before',
    method: 'PUT',
    path: `${DETERMINATIONS_PREFIX}/decommission/modified-before/{modified_before}`,
    pathParams: [{ name: 'modified_before', type: 'date-time' }],
    response: 'list',
    destructive: true,
  }),
  d({ id: 'decommissionBeforeNow', summary: 'Decommission before now', method: 'PUT', path: `${DETERMINATIONS_PREFIX}/decommission/modified-before-now`, response: 'list', destructive: true }),
  d({ id: 'decommissionBulk', summary: 'Decommission all', method: 'PUT', path: `${DETERMINATIONS_PREFIX}/decommission/bulk`, body: { kind: 'ids', required: true }, response: 'list', destructive: true }),
];

/** 4.3: transfer task bodies are optional (required = false in the spec). */
const taskOperations: Operation[] = [
  t({ id: 'get', summary: 'Get by id', method: 'GET', path: `${TASKS_PREFIX}/{id}`, pathParams: [TASK_ID], response: 'single' }),
  t({ id: 'update', summary: 'Update', method: 'PUT', path: `${TASKS_PREFIX}/{id}`, pathParams: [TASK_ID], body: { kind: 'record', required: false }, response: 'single' }),
  t({ id: 'upsertBulk', summary: 'Bulk upsert', method: 'PUT', path: `${TASKS_PREFIX}/createOrUpdate/bulk`, body: { kind: 'records', required: false }, response: 'list' }),
  t({ id: 'upsert', summary: 'Upsert', method: 'PUT', path: `${TASKS_PREFIX}/createOrUpdate`, body: { kind: 'record', required: false }, response: 'single' }),
  t({ id: 'updateBulk', summary: 'Bulk update', method: 'PUT', path: `${TASKS_PREFIX}/bulk`, body: { kind: 'records', required: false }, response: 'list' }),
  t({ id: 'search', summary: 'Search', method: 'POST', path: `${TASKS_PREFIX}/search`, paging: 'search', body: { kind: 'task-filter', required: false }, response: 'page' }),
  t({ id: 'cancel', summary: 'Cancel', method: 'POST', path: `${TASKS_PREFIX}/cancel/{id}`, pathParams: [TASK_ID], response: 'none', destructive: true }),
  t({ id: 'cancelBulk', summary: 'Bulk cancel', method: 'POST', path: `${TASKS_PREFIX}/cancel/bulk`, body: { kind: 'ids', required: false }, response: 'none', destructive: true }),
  t({ id: 'list', summary: 'List all', method: 'GET', path: TASKS_PREFIX, paging: 'pageable', response: 'page' }),
];

const n = (input: RowInput) => row('notifications', { ...input, id: `notifications.${input.id}` });
const USER: PathParam = { name: 'userName', type: 'string' };

/** 4.4, notification records. Where the two listings differ the row says which was chosen. */
const notificationOperations: Operation[] = [
  // Listings disagree on the id type (int64 vs string): accept either.
  n({ id: 'markRead', summary: 'Mark notification read', method: 'POST', path: '/api/notifications/{id}/read', pathParams: [{ name: 'id', type: 'int64-or-string' }], response: 'none' }),
  n({ id: 'workOrder', summary: 'Notify work order created', method: 'POST', path: '/api/notifications/workorder', body: { kind: 'work-order', required: true }, response: 'none' }),
  n({ id: 'countByType', summary: 'Unread count by type', method: 'GET', path: '/api/notifications/{username}/count-by-type', pathParams: [{ name: 'username', type: 'string' }], response: 'count-map' }),
  n({ id: 'list', summary: 'Get notifications', method: 'GET', path: '/api/notifications/{userName}', pathParams: [USER], paging: 'notifications', response: 'notification-page' }),
  n({ id: 'listMobile', summary: 'Get mobile notifications', method: 'GET', path: '/api/notifications/{userName}/for-mobile', pathParams: [USER], paging: 'notifications', response: 'notification-page' }),
  n({ id: 'countMobile', summary: 'Unread mobile notification count', method: 'GET', path: '/api/notifications/{userName}/for-mobile/count', pathParams: [USER], response: 'count-map' }),
  n({
    id: 'count',
    summary: 'Notification count',
    method: 'GET',
    path: '/api/notifications/{userName}/count',
    pathParams: [USER],
    query: [{ name: 'unread', type: 'boolean', default: false, description: 'count only unread notifications' }],
    response: 'count-map',
  }),
  n({ id: 'deleteAll', summary: 'Delete all of a user', method: 'DELETE', path: '/api/notifications/{userName}/all', pathParams: [USER], response: 'none', destructive: true }),
  // One listing answers 200, the other 204: the local server answers 200, the client accepts both.
  n({ id: 'delete', summary: 'Delete notification', method: 'DELETE', path: '/api/notifications/{id}', pathParams: [{ name: 'id', type: 'int64-or-string' }], response: 'none', altStatuses: [204], destructive: true }),
  n({ id: 'create', summary: 'Create notification', method: 'POST', path: '/api/notifications', body: { kind: 'notification', required: true }, response: 'array', status: 201 }),
];

const otherNotificationSide: Operation[] = [
  row('email-notifications', { id: 'email-notifications.create', summary: 'Create email notification', method: 'POST', path: '/api/email-notifications', body: { kind: 'email-notification', required: true }, response: 'array', status: 201 }),
  row('email-notifications', { id: 'email-notifications.delete', summary: 'Delete email notification', method: 'DELETE', path: '/api/email-notifications/{id}', pathParams: [ID], response: 'none', status: 204, destructive: true }),
  // The spec's body is "optional as a whole" but both parts are required: the server needs both.
  row('images', { id: 'images.upload', summary: 'Upload image', method: 'POST', path: '/api/images', body: { kind: 'image-upload', required: true }, response: 'none', status: 201 }),
  row('images', { id: 'images.delete', summary: 'Delete image', method: 'DELETE', path: '/api/images/{id}', pathParams: [ID], response: 'none', status: 204, destructive: true }),
  row('topics', { id: 'topics.list', summary: 'Find topics', method: 'GET', path: '/api/topics/{service}', pathParams: [{ name: 'service', type: 'string' }], response: 'array' }),
];

/** Every operation of the service, in spec order. */
export const OPERATIONS: readonly Operation[] = [
  ...recordOperations('determinations', DETERMINATIONS_PREFIX),
  ...determinationLifecycle,
  ...recordOperations('settings', SETTINGS_PREFIX),
  ...taskOperations,
  ...notificationOperations,
  ...otherNotificationSide,
];

const byId = new Map(OPERATIONS.map((op) => [op.id, op]));

/** Looks an operation up by id; throws on a typo so mistakes surface in tests. */
export function operation(id: string): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`unknown operation ${id}`);
  return op;
}

/** Fills `{param}` placeholders, URL-encoding each value. */
export function expandPath(op: Operation, params: Record<string, string | number | bigint> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`${op.id}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
