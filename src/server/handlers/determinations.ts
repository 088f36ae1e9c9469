/**
 * Determinations: the shared record operations plus remove and decommission.
 * `status` is ACTIVE or DECOMMISSIONED (ACTIVE when not given); decommissioning
 * stamps `decommissionedAt`. Remove deletes a record unless it has `inUse: true`,
 * in which case it is decommissioned instead, and the message says which.
 */
import { NOUNS, capitalised, counted } from '../../contract/wording.js';
import type { Store, StoredRecord } from '../../store/types.js';
import { ChangeSet } from '../change-set.js';
import type { OperationHandler } from '../context.js';
import { HttpProblem, badField } from '../problem.js';
import { recordHandlers, type RecordResource } from './accounting-records.js';

const DETERMINATION_STATUSES = ['ACTIVE', 'DECOMMISSIONED'] as const;

const resource: RecordResource = {
  collection: 'determinations',
  noun: NOUNS.determinations,
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

/** Decommissions the named records; 404 for unknown ids, 409 for ones already decommissioned, nothing applied then. */
async function decommissionIds(set: ChangeSet, ids: readonly number[], now: string): Promise<StoredRecord[]> {
  const already = set.existing(ids, NOUNS.determinations).filter((record) => record.status === 'DECOMMISSIONED').map((record) => record.id);
  if (already.length) {
    throw new HttpProblem(409, `already decommissioned: ${already.join(', ')}`, {
      slug: 'conflict',
      errors: already.map((id) => ({ path: 'id', message: `${id} is already DECOMMISSIONED` })),
    });
  }
  const records = ids.map((id) => set.put(decommissioned(set.get(id) as StoredRecord, now)));
  await set.commit();
  return records;
}

/** Decommissions every ACTIVE determination last modified before `before` (ms since epoch). */
async function decommissionModifiedBefore(store: Store, before: number, now: string) {
  const set = new ChangeSet(store, 'determinations');
  const chosen = [...store.all('determinations')].filter((r) => r.status !== 'DECOMMISSIONED' && Date.parse(String(r.updatedAt)) < before);
  const result = chosen.map((r) => set.put(decommissioned(r, now)));
  await set.commit();
  return { data: result, message: `${counted(result.length, NOUNS.determinations)} decommissioned` };
}

/** Deletes or, for records in use, decommissions; returns what happened to each. */
async function remove(set: ChangeSet, ids: readonly number[], now: string) {
  set.existing(ids, NOUNS.determinations);
  const deleted: number[] = [];
  const kept: number[] = [];
  for (const id of new Set(ids)) {
    const record = set.get(id) as StoredRecord;
    if (record.inUse === true) {
      kept.push(id);
      if (record.status !== 'DECOMMISSIONED') set.put(decommissioned(record, now));
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
  return `${capitalised(NOUNS.determinations[1])} ${parts.join('; ')}`;
}

export const determinationHandlers = {
  ...recordHandlers(resource),

  decommission: async ({ params, now }, { store }) => {
    const [record] = await decommissionIds(new ChangeSet(store, 'determinations'), [params.id as number], now);
    return { data: record, message: `Determination ${String(params.id)} decommissioned` };
  },

  decommissionBulk: async ({ body, now }, { store }) => {
    const records = await decommissionIds(new ChangeSet(store, 'determinations'), [...new Set(body as number[])], now);
    return { data: records, message: `${counted(records.length, NOUNS.determinations)} decommissioned` };
  },

  decommissionModifiedBefore: ({ params, now }, { store }) =>
    decommissionModifiedBefore(store, Date.parse(String(params.modified_before)), now),

  decommissionBeforeNow: ({ now }, { store }) =>
    decommissionModifiedBefore(store, Date.parse(now), now),

  remove: async ({ params, now }, { store }) => ({ message: removeMessage(await remove(new ChangeSet(store, 'determinations'), [params.id as number], now)) }),

  removeBulk: async ({ body, now }, { store }) => ({ message: removeMessage(await remove(new ChangeSet(store, 'determinations'), body as number[], now)) }),
} satisfies Record<string, OperationHandler>;
