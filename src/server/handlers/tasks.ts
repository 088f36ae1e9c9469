/**
 * Transfer tasks: `status` PENDING → RUNNING → COMPLETED | FAILED, and cancel from
 * PENDING or RUNNING → CANCELLED; any other change of status is a 409. Search
 * filters by equality, "any of" (array) and `{from, to}` ranges, sorted by
 * `createdAt` ascending unless the query says otherwise.
 */
import { RECORD_TYPE_NAMES } from '../../contract/schemas.js';
import type { RecordId } from '../../contract/ids.js';
import { counted, NOUNS } from '../../contract/wording.js';
import type { Condition, StoredRecord } from '../../store/types.js';
import { ChangeSet } from '../change-set.js';
import type { OperationHandler, ServerContext } from '../context.js';
import { requestedPage, shapedPage } from '../paging.js';
import { MAX_FILTER_VALUES, overLimit } from '../limits.js';
import { HttpProblem, badField } from '../problem.js';
import { recordHandlers } from './accounting-records.js';

const TASK_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
/** The statuses a transfer task can be in. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The statuses each status may move to (staying put is always allowed). */
const TASK_TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  PENDING: ['RUNNING', 'CANCELLED'],
  RUNNING: ['COMPLETED', 'FAILED', 'CANCELLED'],
  COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
};

/** Timestamp field stamped when a task enters a status. */
const STAMPS: Partial<Record<TaskStatus, string>> = { RUNNING: 'startedAt', COMPLETED: 'finishedAt', FAILED: 'finishedAt', CANCELLED: 'cancelledAt' };

/**
 * The task in its next status, stamped; 409 when the transition is not allowed.
 * Staying in the same status is a no-op for an update, but a conflict for an
 * explicit command such as cancel (`sameIsConflict`): the operator asked for a
 * change that cannot happen (DESIGN: cancel only from PENDING or RUNNING).
 */
export function moveTask(task: StoredRecord, to: TaskStatus, now: string, at = 'status', sameIsConflict = false): StoredRecord {
  const from = (task.status ?? 'PENDING') as TaskStatus;
  if (from === to && sameIsConflict) {
    throw new HttpProblem(409, `task ${task.id} is already ${to}`, { slug: 'conflict', errors: [{ path: at, message: `${from} → ${to} is not allowed` }] });
  }
  if (from === to) return task;
  if (!TASK_TRANSITIONS[from]?.includes(to)) {
    throw new HttpProblem(409, `task ${task.id} cannot go from ${from} to ${to}`, {
      slug: 'conflict',
      errors: [{ path: at, message: `${from} → ${to} is not allowed` }],
    });
  }
  const stamp = STAMPS[to];
  return { ...task, status: to, updatedAt: now, ...(stamp ? { [stamp]: now } : {}) };
}

const records = recordHandlers({
  collection: 'tasks',
  noun: NOUNS.tasks,
  typeName: RECORD_TYPE_NAMES.tasks,
  prepare(next, previous, at, now) {
    const status = next.status ?? previous?.status ?? 'PENDING';
    if (!TASK_STATUSES.includes(status as TaskStatus)) throw badField(`${at}.status`, `must be one of ${TASK_STATUSES.join(', ')}`);
    if (!previous) return { ...next, status };
    return moveTask({ ...next, status: previous.status }, status as TaskStatus, now, `${at}.status`);
  },
});

function isRange(value: unknown): value is { from?: unknown; to?: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k === 'from' || k === 'to');
}

/**
 * The filter of a search as store conditions: array = any of, `{from, to}` = inclusive
 * range, else equality. 400 past `MAX_FILTER_VALUES` fields and values.
 */
function conditionsOf(filter: Record<string, unknown> | undefined): Condition[] {
  const entries = Object.entries(filter ?? {});
  const values = entries.reduce((sum, [, expected]) => sum + (Array.isArray(expected) ? Math.max(expected.length, 1) : 1), 0);
  if (values > MAX_FILTER_VALUES) throw overLimit('body', 'filter values', MAX_FILTER_VALUES, values);
  return entries.map(([field, expected]): Condition => {
    if (Array.isArray(expected)) return { field, anyOf: expected };
    if (isRange(expected))
      return { field, range: { ...(expected.from !== undefined ? { from: expected.from } : {}), ...(expected.to !== undefined ? { to: expected.to } : {}) } };
    return { field, equals: expected };
  });
}

function cancel(ctx: ServerContext, ids: readonly (number | bigint)[], now: string): Promise<void> {
  return ctx.store.transaction(async (tx) => {
    const set = new ChangeSet(tx, 'tasks');
    const tasks = await set.existing(ids, NOUNS.tasks);
    for (const [i, task] of tasks.entries()) set.put(moveTask(task, 'CANCELLED', now, ids.length > 1 ? `body[${i}]` : 'id', true));
  });
}

export const taskHandlers = {
  get: records.get,
  list: records.list,
  update: records.update,
  updateBulk: records.updateBulk,
  upsert: records.upsert,
  upsertBulk: records.upsertBulk,

  search: async (call, { store, options }) => {
    const request = requestedPage(call);
    const sort = request.sort.length ? request.sort : [{ field: 'createdAt', direction: 'asc' as const }];
    const where = conditionsOf(call.body as Record<string, unknown> | undefined);
    const result = await store.page('tasks', { offset: request.offset, limit: request.limit, sort, where });
    return shapedPage('nested', result.items, result, request, options.wire?.page);
  },

  cancel: async ({ params, now }, ctx) => {
    await cancel(ctx, [params.id as RecordId], now);
    return {};
  },

  cancelBulk: async ({ body, now }, ctx) => {
    const ids = [...new Set((body as (number | bigint)[] | undefined) ?? [])];
    await cancel(ctx, ids, now);
    // The ids named: a bulk answer confirms only the items it names (src/confirm/item-results.ts).
    return { message: `${counted(ids.length, NOUNS.tasks)} cancelled: ${ids.join(', ')}` };
  },
} satisfies Record<string, OperationHandler>;
