/**
 * Determinations: the shared record operations plus remove and decommission.
 * `status` is ACTIVE or DECOMMISSIONED (ACTIVE when not given); decommissioning
 * stamps `decommissionedAt`. Remove deletes a record unless it has `inUse: true`,
 * in which case it is decommissioned instead, and the message says which.
 */
import { DECOMMISSIONED, isDecommissioned, removeKeeps } from '../../contract/decommission.js';
import { RECORD_TYPE_NAMES } from '../../contract/schemas.js';
import type { RecordId } from '../../contract/ids.js';
import { NOUNS, capitalised, counted } from '../../contract/wording.js';
import type { StoredRecord } from '../../store/types.js';
import { ChangeSet } from '../change-set.js';
import type { OperationHandler, ServerContext } from '../context.js';
import { HttpProblem, badField } from '../problem.js';
import { recordHandlers, type RecordResource } from './accounting-records.js';

const DETERMINATION_STATUSES = ['ACTIVE', DECOMMISSIONED] as const;

const resource: RecordResource = {
  collection: 'determinations',
  noun: NOUNS.determinations,
  typeName: RECORD_TYPE_NAMES.determinations,
  prepare(next, previous, at, now) {
    const status = next.status ?? 'ACTIVE';
    if (!DETERMINATION_STATUSES.includes(status as (typeof DETERMINATION_STATUSES)[number])) {
      throw badField(`${at}.status`, `must be one of ${DETERMINATION_STATUSES.join(', ')}`);
    }
    const record: StoredRecord = { ...next, status };
    if (status === DECOMMISSIONED && !(previous && isDecommissioned(previous))) record.decommissionedAt ??= now;
    if (status === 'ACTIVE') delete record.decommissionedAt;
    return record;
  },
};

function decommissioned(record: StoredRecord, now: string): StoredRecord {
  return { ...record, status: DECOMMISSIONED, decommissionedAt: now, updatedAt: now };
}

/** 409 naming the records among `records` that are already decommissioned, if any. */
function refuseDecommissioned(records: readonly StoredRecord[]): void {
  const already = records.filter(isDecommissioned).map((record) => record.id);
  if (already.length) {
    throw new HttpProblem(409, `already decommissioned: ${already.join(', ')}`, {
      slug: 'conflict',
      errors: already.map((id) => ({ path: 'id', message: `${id} is already DECOMMISSIONED` })),
    });
  }
}

/** Decommissions the named records; 404 for unknown ids, 409 for ones already decommissioned, nothing applied then. */
function decommissionIds(ctx: ServerContext, ids: readonly (number | bigint)[], now: string): Promise<StoredRecord[]> {
  return ctx.store.transaction(async (tx) => {
    const set = new ChangeSet(tx, 'determinations');
    const records = await set.existing(ids, NOUNS.determinations);
    refuseDecommissioned(records);
    return records.map((record) => set.put(decommissioned(record, now)));
  });
}

/** Decommissions every ACTIVE determination last modified before `before`. */
async function decommissionModifiedBefore(ctx: ServerContext, before: Date, now: string) {
  const result = await ctx.store.transaction(async (tx) => {
    const set = new ChangeSet(tx, 'determinations');
    // Stamps are the server's own ISO 8601 UTC strings, so string order is time order.
    const chosen = await tx.find('determinations', {
      where: [
        { field: 'status', notEquals: DECOMMISSIONED },
        { field: 'updatedAt', range: { before: before.toISOString() } },
      ],
    });
    return chosen.map((r) => set.put(decommissioned(r, now)));
  });
  return { data: result, message: `${counted(result.length, NOUNS.determinations)} decommissioned` };
}

/**
 * Deletes or, for records in use, decommissions; returns what happened to each. A
 * record in use that is already decommissioned is the 409 decommission answers.
 */
function remove(ctx: ServerContext, ids: readonly (number | bigint)[], now: string) {
  return ctx.store.transaction(async (tx) => {
    const set = new ChangeSet(tx, 'determinations');
    const records = await set.existing([...new Set(ids)], NOUNS.determinations);
    refuseDecommissioned(records.filter(removeKeeps));
    const deleted: RecordId[] = [];
    const kept: RecordId[] = [];
    for (const record of records) {
      if (removeKeeps(record)) {
        kept.push(record.id);
        set.put(decommissioned(record, now));
      } else {
        deleted.push(record.id);
        set.delete(record.id);
      }
    }
    return { deleted, kept };
  });
}

function removeMessage({ deleted, kept }: { deleted: RecordId[]; kept: RecordId[] }): string {
  const parts: string[] = [];
  if (deleted.length) parts.push(`deleted ${deleted.join(', ')}`);
  if (kept.length) parts.push(`decommissioned ${kept.join(', ')} (in use, kept)`);
  return `${capitalised(NOUNS.determinations[1])} ${parts.join('; ')}`;
}

export const determinationHandlers = {
  ...recordHandlers(resource),

  decommission: async ({ params, now }, ctx) => {
    const [record] = await decommissionIds(ctx, [params.id as RecordId], now);
    return { data: record, message: `Determination ${String(params.id)} decommissioned` };
  },

  decommissionBulk: async ({ body, now }, ctx) => {
    const records = await decommissionIds(ctx, [...new Set(body as (number | bigint)[])], now);
    return { data: records, message: `${counted(records.length, NOUNS.determinations)} decommissioned` };
  },

  decommissionModifiedBefore: ({ params, now }, ctx) => decommissionModifiedBefore(ctx, new Date(Date.parse(String(params.modified_before))), now),

  decommissionBeforeNow: ({ now }, ctx) => decommissionModifiedBefore(ctx, new Date(now), now),

  remove: async ({ params, now }, ctx) => ({ message: removeMessage(await remove(ctx, [params.id as RecordId], now)) }),

  removeBulk: async ({ body, now }, ctx) => ({ message: removeMessage(await remove(ctx, body as (number | bigint)[], now)) }),
} satisfies Record<string, OperationHandler>;
