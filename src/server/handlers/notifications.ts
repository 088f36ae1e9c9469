/**
 * Notifications of spec 4.4. Records are NotificationDto (`createdDate`,
 * `lastModifiedDate`, `viewed`, …); lists answer page shape A of the list-item
 * projection, newest first. "Mobile" selects the notifications whose `service` is
 * `mobile`. A work order creates one notification per property of its body.
 */
import type { RecordId } from '../../contract/ids.js';
import { NOUNS } from '../../contract/wording.js';
import type { Condition, StoreReader, StoredRecord } from '../../store/types.js';
import type { OperationCall, OperationHandler, ServerContext } from '../context.js';
import { requestedPage, shapedPage } from '../paging.js';
import { idFromPath } from '../path-id.js';
import { notFound } from '../problem.js';
import { queryFlag } from '../query-flags.js';

/** The `service` value that puts a notification into the mobile feed. */
const MOBILE_SERVICE = 'mobile';

const NEWEST_FIRST = [
  { field: 'createdDate', direction: 'desc' as const },
  { field: 'id', direction: 'desc' as const },
];

const MOBILE: Condition = { field: 'service', equalsIgnoreCase: MOBILE_SERVICE };
const UNREAD: Condition = { field: 'viewed', notEquals: true };

/** The notifications of one user, and the further conditions given. */
function forUser(user: unknown, ...more: Condition[]): Condition[] {
  return [{ field: 'forUserId', equals: String(user) }, ...more];
}

/** A DTO field as the list item carries it: `null` when the notification has none (every key is always there). */
const orNull = (value: unknown): unknown => value ?? null;

/** The list item of spec 2.2, projected from a NotificationDto; absent fields are `null`, as a Java DTO serializes them. */
function listItem(n: StoredRecord) {
  const created = typeof n.createdDate === 'string' ? n.createdDate : null;
  return {
    id: n.id,
    createdBy: orNull(n.byUserId),
    createdAt: created,
    title: orNull(n.title),
    forUserId: orNull(n.forUserId),
    byUserId: orNull(n.byUserId),
    message: orNull(n.description),
    redirectTo: orNull(n.clickEvent),
    displayId: `N-${String(n.id).padStart(6, '0')}`,
    // Time of day (UTC) the notification was created, for compact lists.
    createdTime: created === null ? null : created.slice(11, 16),
    type: orNull(n.type),
    read: n.viewed === true,
  };
}

async function listPage(call: OperationCall, ctx: ServerContext, ...more: Condition[]) {
  const request = requestedPage(call);
  const result = await ctx.store.page('notifications', {
    offset: request.offset,
    limit: request.limit,
    sort: NEWEST_FIRST,
    where: forUser(call.params.userName, ...more),
  });
  return shapedPage('flat', result.items.map(listItem), result, request, ctx.options.wire?.page, true);
}

/** The numeric id of a notification path parameter (the spec allows a string); 404 when it names nothing. */
async function existing(reader: StoreReader, raw: unknown): Promise<StoredRecord> {
  const id = idFromPath(raw);
  const record = id === undefined ? undefined : await reader.get('notifications', id);
  if (!record) throw notFound(NOUNS.notifications, [String(raw)]);
  return record;
}

/** A new NotificationDto from a request body; the server owns id and dates, `viewed` starts false. */
function newNotification(id: RecordId, body: Record<string, unknown>, now: string): StoredRecord {
  const { id: _ignored, ...fields } = body;
  return { id, viewed: false, ...fields, createdDate: now, lastModifiedDate: now };
}

/**
 * Whom a work order that names no user (no non-empty string `forUserId`) is for: the
 * spec's work-order values are free-form objects, so none may name one. Such
 * notifications go to this user, where `pla notifications list workorder` finds them.
 */
export const WORK_ORDER_INBOX = 'workorder';

/** The notification a work-order property announces; `forUserId` names its recipient, else `WORK_ORDER_INBOX`. */
function workOrderNotification(id: RecordId, name: string, value: Record<string, unknown>, now: string): StoredRecord {
  const text = (field: string) => (typeof value[field] === 'string' && value[field] !== '' ? (value[field] as string) : undefined);
  return newNotification(
    id,
    {
      forUserId: text('forUserId') ?? WORK_ORDER_INBOX,
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

/** Stores new notifications under new ids, in one transaction. */
function insertAll(ctx: ServerContext, build: (ids: RecordId[]) => StoredRecord[], count: number): Promise<StoredRecord[]> {
  return ctx.store.transaction(async (tx) => {
    const records = build(await tx.allocateIds('notifications', count));
    for (const record of records) tx.put('notifications', record);
    return records;
  });
}

export const notificationHandlers = {
  list: (call, ctx) => listPage(call, ctx),
  listMobile: (call, ctx) => listPage(call, ctx, MOBILE),

  count: async ({ params, query }, { store }) => {
    const unread = queryFlag(query, 'unread', false);
    return { data: { count: await store.count('notifications', forUser(params.userName, ...(unread ? [UNREAD] : []))) } };
  },

  countMobile: async ({ params }, { store }) => ({ data: { count: await store.count('notifications', forUser(params.userName, MOBILE, UNREAD)) } }),

  countByType: async ({ params }, { store }) => {
    // A Map, not an object: a type is data, and `constructor` or `__proto__` must count
    // like any other name rather than read Object.prototype's.
    const counts = new Map<string, number>();
    for (const n of await store.find('notifications', { where: forUser(params.username, UNREAD) })) {
      const type = typeof n.type === 'string' && n.type ? n.type : 'UNTYPED';
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    return { data: Object.fromEntries(counts) };
  },

  markRead: async ({ params, now }, ctx) => {
    await ctx.store.transaction(async (tx) => {
      const record = await existing(tx, params.id);
      if (record.viewed !== true) tx.put('notifications', { ...record, viewed: true, lastModifiedDate: now });
    });
    return {};
  },

  delete: async ({ params }, ctx) => {
    await ctx.store.transaction(async (tx) => tx.delete('notifications', (await existing(tx, params.id)).id));
    return {};
  },

  deleteAll: async ({ params }, { store }) => {
    await store.transaction(async (tx) => {
      for (const n of await tx.find('notifications', { where: forUser(params.userName) })) tx.delete('notifications', n.id);
    });
    return {};
  },

  create: async ({ body, now }, ctx) => ({
    data: await insertAll(ctx, ([id]) => [newNotification(id as number, body as Record<string, unknown>, now)], 1),
  }),

  workOrder: async ({ body, now }, ctx) => {
    // Free-form (spec 2.8): any names, any object values, even none at all.
    const entries = Object.entries(body as Record<string, Record<string, unknown>>);
    if (entries.length) {
      await insertAll(ctx, (ids) => entries.map(([name, value], i) => workOrderNotification(ids[i] as number, name, value, now)), entries.length);
    }
    return {};
  },
} satisfies Record<string, OperationHandler>;
