/**
 * Determinations: the shared record operations plus remove and decommission.
 * `status` is ACTIVE or DECOMMISSIONED (ACTIVE when not given); decommissioning
 * stamps `decommissionedAt`. Remove deletes a record unless it has `inUse: true`,
 * in which case it is decommissioned instead, and the message says which.
 */
import type { Store, StoredRecord } from '../../store/types.js';
import { ChangeSet } from '../change-set.js';
import type { OperationHandler } from '../context.js';
import { HttpProblem, badField } from '../problem.js';
import { recordHandlers, type RecordResource } from './accounting-records.js';

const DETERMINATION_STATUSES = ['ACTIVE', 'DECOMMISSIONED'] as const;

const resource: RecordResource = {
  collection: 'determinations',
  noun: 'determination',
  typeName: 'AssetTransactionTypeDeterminationDto',
  prepare(next, previous, at, now) {
    const status = next.status ?? 'ACTIVE';
    if (!DETERMINATION_STATUSES.includes(status as (typeof DETERMINATION_STATUSES)[number])) {
      throw badField(`${at}.status`, `must be one of ${DETERMINATION_STATUSES.join(', ')}`);
    }
    const record: StoredRecord = { ...next, status };
    if (status === 'DECOMMISSIONED' && previous?.status !== 'DECOMMISSIONED') record.decommissionedAt ??= now;
    if (status === 'ACTIVE') delete record.decommissionedAt;
    return record;
  },
};

function decommissioned(record: StoredRecord, now: string): StoredRecord {
  return { ...record, status: 'DECOMMISSIONED', decommissionedAt: now, updatedAt: now };
}

/** 409 naming the records among `records` that are already decommissioned, if any. */
function refuseDecommissioned(records: readonly StoredRecord[]): void {
  const already = records.filter((record) => record.status === 'DECOMMISSIONED').map((record) => record.id);
  if (already.length) {
    throw new HttpProblem(409, `already decommissioned: ${already.join(', ')}`, {
      slug: 'conflict',
      errors: already.map((id) => ({ path: 'id', message: `${id} is already DECOMMISSIONED` })),
    });
  }
}

/** Decommissions the named records; 404 for unknown ids, 409 for ones already decommissioned, nothing applied then. */
async function decommissionIds(set: ChangeSet, ids: readonly (number | bigint)[], now: string): Promise<StoredRecord[]> {
  const records = set.existing(ids, 'determination');
  refuseDecommissioned(records);
  const decommissionedRecords = records.map((record) => set.put(decommissioned(record, now)));
  await set.commit();
  return decommissionedRecords;
}

/** Decommissions every ACTIVE determination last modified before `before` (ms since epoch). */
async function decommissionModifiedBefore(store: Store, before: number, now: string) {
  const set = new ChangeSet(store, 'determinations');
  const chosen = [...store.all('determinations')].filter((r) => r.status !== 'DECOMMISSIONED' && Date.parse(String(r.updatedAt)) < before);
  const result = chosen.map((r) => set.put(decommissioned(r, now)));
  await set.commit();
  return { data: result, message: `${result.length} determination(s) decommissioned` };
}

/**
 * Deletes or, for records in use, decommissions; returns what happened to each. A
 * record in use that is already decommissioned is the 409 decommission answers.
 */
async function remove(set: ChangeSet, ids: readonly (number | bigint)[], now: string) {
  const records = [...new Set(set.existing(ids, 'determination'))];
  refuseDecommissioned(records.filter((record) => record.inUse === true));
  const deleted: number[] = [];
  const kept: number[] = [];
  for (const record of records) {
    const { id } = record;
    if (record.inUse === true) {
      kept.push(id);
      set.put(decommissioned(record, now));
    } else {
      deleted.push(id);
      set.delete(id);
    }
  }
  await set.commit();
  return { deleted, kept };
}

function removeMessage({ deleted, kept }: { deleted: number[]; kept: number[] }): string {
  const parts: string[] = [];
  if (deleted.length) parts.push(`deleted ${deleted.join(', ')}`);
  if (kept.length) parts.push(`decommissioned ${kept.join(', ')} (in use, kept)`);
  return `Determination(s) ${parts.join('; ')}`;
}

export const determinationHandlers: Record<string, OperationHandler> = {
  ...recordHandlers(resource),

  decommission: async ({ params, now }, { store }) => {
    const [record] = await decommissionIds(new ChangeSet(store, 'determinations'), [params.id as number], now);
    return { data: record, message: `Determination ${String(params.id)} decommissioned` };
  },

  decommissionBulk: async ({ body, now }, { store }) => {
    const records = await decommissionIds(new ChangeSet(store, 'determinations'), [...new Set(body as (number | bigint)[])], now);
    return { data: records, message: `${records.length} determination(s) decommissioned` };
  },

  decommissionModifiedBefore: ({ params, now }, { store }) =>
    decommissionModifiedBefore(store, Date.parse(String(params.modified_before)), now),

  decommissionBeforeNow: ({ now }, { store }) =>
    decommissionModifiedBefore(store, Date.parse(now), now),

  remove: async ({ params, now }, { store }) => ({ message: removeMessage(await remove(new ChangeSet(store, 'determinations'), [params.id as number], now)) }),

  removeBulk: async ({ body, now }, { store }) => ({ message: removeMessage(await remove(new ChangeSet(store, 'determinations'), body as (number | bigint)[], now)) }),
};
