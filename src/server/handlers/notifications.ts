/**
 * Notifications of spec 4.4. Records are NotificationDto (`createdDate`,
 * `lastModifiedDate`, `viewed`, …); lists answer page shape A of the list-item
 * projection, newest first. "Mobile" selects the notifications whose `service` is
 * `mobile`. A work order creates one notification per property of its body.
 */
import { NOUNS } from '../../contract/wording.js';
import type { StoredRecord } from '../../store/types.js';
import type { OperationCall, OperationHandler, ServerContext } from '../context.js';
import { pageA, requestedPage } from '../paging.js';
import { idFromPath } from '../path-id.js';
import { badField, notFound } from '../problem.js';

/** The `service` value that puts a notification into the mobile feed. */
const MOBILE_SERVICE = 'mobile';

const NEWEST_FIRST = [
  { field: 'createdDate', direction: 'desc' as const },
  { field: 'id', direction: 'desc' as const },
];

const isMobile = (n: StoredRecord) => String(n.service ?? '').toLowerCase() === MOBILE_SERVICE;
const isUnread = (n: StoredRecord) => n.viewed !== true;

/** The list item of spec 2.2, projected from a NotificationDto. */
function listItem(n: StoredRecord) {
  const created = typeof n.createdDate === 'string' ? n.createdDate : undefined;
  return {
    id: n.id,
    createdBy: n.byUserId,
    createdAt: created,
    title: n.title,
    forUserId: n.forUserId,
    byUserId: n.byUserId,
    message: n.description,
    redirectTo: n.clickEvent,
    displayId: `N-${String(n.id).padStart(6, '0')}`,
    // Time of day (UTC) the notification was created, for compact lists.
    createdTime: created?.slice(11, 16),
    type: n.type,
    read: n.viewed === true,
  };
}

function userNotifications(store: ServerContext['store'], user: unknown, keep?: (n: StoredRecord) => boolean): StoredRecord[] {
  const all = store.findBy('notifications', 'forUserId', String(user));
  return keep ? all.filter(keep) : all;
}

function listPage(call: OperationCall, ctx: ServerContext, where?: (n: StoredRecord) => boolean) {
  const request = requestedPage(call);
  const result = ctx.store.page('notifications', {
    offset: request.offset,
    limit: request.limit,
    sort: NEWEST_FIRST,
    index: { field: 'forUserId', value: String(call.params.userName) },
    ...(where ? { where } : {}),
  });
  return { data: pageA(result.items.map(listItem), result, request, true) };
}

/** The numeric id of a notification path parameter (the spec allows a string); 404 when it names nothing. */
function existing(ctx: ServerContext, raw: unknown): StoredRecord {
  const id = idFromPath(raw);
  const record = id === undefined ? undefined : ctx.store.get('notifications', id);
  if (!record) throw notFound(NOUNS.notifications, [String(raw)]);
  return record;
}

/** A new NotificationDto from a request body; the server owns id and dates, `viewed` starts false. */
function newNotification(ctx: ServerContext, body: Record<string, unknown>, now: string): StoredRecord {
  const { id: _ignored, ...fields } = body;
  return { id: ctx.store.allocateId('notifications'), viewed: false, ...fields, createdDate: now, lastModifiedDate: now };
}

/** The notification a work-order property announces; `forUserId` names its recipient. */
function workOrderNotification(ctx: ServerContext, name: string, value: Record<string, unknown>, now: string): StoredRecord {
  const text = (field: string) => (typeof value[field] === 'string' ? (value[field] as string) : undefined);
  return newNotification(
    ctx,
    {
      forUserId: text('forUserId'),
      byUserId: text('byUserId') ?? 'workorder',
      type: text('type') ?? 'WORK_ORDER',
      service: text('service') ?? 'workorder',
      triggerEvent: 'WORK_ORDER_CREATED',
      triggerEventParams: [name],
      clickEvent: text('clickEvent') ?? 'OPEN_WORK_ORDER',
      clickEventParams: [name],
      title: text('title') ?? `Work order ${name} created`,
      description: text('description') ?? `Work order ${name} was created.`,
    },
    now,
  );
}

export const notificationHandlers = {
  list: (call, ctx) => listPage(call, ctx),
  listMobile: (call, ctx) => listPage(call, ctx, isMobile),

  count: ({ params, query }, { store }) => {
    const unread = query.get('unread') === 'true';
    return { data: { count: userNotifications(store, params.userName, unread ? isUnread : undefined).length } };
  },

  countMobile: ({ params }, { store }) => ({ data: { count: userNotifications(store, params.userName, (n) => isMobile(n) && isUnread(n)).length } }),

  countByType: ({ params }, { store }) => {
    // A Map, not an object: a type is data, and `constructor` or `__proto__` must count
    // like any other name rather than read Object.prototype's.
    const counts = new Map<string, number>();
    for (const n of userNotifications(store, params.username, isUnread)) {
      const type = typeof n.type === 'string' && n.type ? n.type : 'UNTYPED';
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    return { data: Object.fromEntries(counts) };
  },

  markRead: async ({ params, now }, ctx) => {
    const record = existing(ctx, params.id);
    if (record.viewed !== true) await ctx.store.commit([{ op: 'put', collection: 'notifications', record: { ...record, viewed: true, lastModifiedDate: now } }]);
    return {};
  },

  delete: async ({ params }, ctx) => {
    const record = existing(ctx, params.id);
    await ctx.store.commit([{ op: 'delete', collection: 'notifications', id: record.id }]);
    return {};
  },

  deleteAll: async ({ params }, { store }) => {
    const ids = userNotifications(store, params.userName).map((n) => n.id);
    if (ids.length) await store.commit(ids.map((id) => ({ op: 'delete' as const, collection: 'notifications' as const, id })));
    return {};
  },

  create: async ({ body, now }, ctx) => {
    const record = newNotification(ctx, body as Record<string, unknown>, now);
    await ctx.store.commit([{ op: 'put', collection: 'notifications', record }]);
    return { data: [record] };
  },

  workOrder: async ({ body, now }, ctx) => {
    const entries = Object.entries(body as Record<string, Record<string, unknown>>);
    if (!entries.length) throw badField('body', 'a work order needs at least one property');
    const missing = entries.find(([, value]) => typeof value.forUserId !== 'string' || value.forUserId === '');
    if (missing) throw badField(`body.${missing[0]}.forUserId`, 'each work order names the user to notify in forUserId');
    const records = entries.map(([name, value]) => workOrderNotification(ctx, name, value, now));
    await ctx.store.commit(records.map((record) => ({ op: 'put' as const, collection: 'notifications' as const, record })));
    return {};
  },
} satisfies Record<string, OperationHandler>;
