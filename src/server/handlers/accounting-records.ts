/**
 * The record operations determinations, settings and tasks share: get, list,
 * create, update, upsert, delete, their bulk variants and meta. Records are open
 * JSON objects; the server owns `id`, `createdAt` and `updatedAt`. Resource rules
 * (status values, transitions) come in through `prepare`.
 */
import type { RecordId } from '../../contract/ids.js';
import { capitalised, counted, type Noun } from '../../contract/wording.js';
import type { CollectionName, PageResult, StoredRecord } from '../../store/types.js';
import type { PageProfile } from '../../contract/wire-profile.js';
import { ChangeSet } from '../change-set.js';
import type { OperationCall, OperationHandler, OperationOutcome, ServerContext } from '../context.js';
import { describeRecords } from '../meta-schema.js';
import { requestedPage, shapedPage, type PageRequest } from '../paging.js';
import { badField, notFound } from '../problem.js';

const SERVER_OWNED = ['id', 'createdAt', 'updatedAt'] as const;

export interface RecordResource {
  collection: CollectionName;
  /** What one record is called, and several, for messages. */
  noun: Noun;
  /** Name of the record type, for the meta schema. */
  typeName: string;
  /**
   * Applies the resource's rules to a record about to be stored (`previous` is
   * undefined on create); `at` is the body path for error messages. Throws an
   * HttpProblem (400 bad value, 409 bad transition).
   */
  prepare?: (next: StoredRecord, previous: StoredRecord | undefined, at: string, now: string) => StoredRecord;
}

type Body = Record<string, unknown> & { id?: RecordId };

function clientFields(body: Body): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...body };
  for (const owned of SERVER_OWNED) delete fields[owned];
  return fields;
}

/** Builds the shared handlers of one resource, keyed by verb (`get`, `createBulk`, …). */
export function recordHandlers(resource: RecordResource) {
  const { collection, noun } = resource;
  const Noun = capitalised(noun[0]);
  const prepare = resource.prepare ?? ((next: StoredRecord) => next);

  /** A new record of `body` under a new id (from `ids`, allocated for the whole request). */
  const create = (set: ChangeSet, id: RecordId, body: Body, at: string, call: OperationCall) => {
    const record = { id, ...clientFields(body), createdAt: call.now, updatedAt: call.now };
    return set.put(prepare(record, undefined, at, call.now));
  };
  const update = (set: ChangeSet, existing: StoredRecord, body: Body, at: string, call: OperationCall) => {
    const record = { ...existing, ...clientFields(body), id: existing.id, createdAt: existing.createdAt, updatedAt: call.now };
    return set.put(prepare(record, existing, at, call.now));
  };
  /** One transaction of a request on this collection. */
  const write = <T>(ctx: ServerContext, work: (set: ChangeSet) => Promise<T>) => ctx.store.transaction((tx) => work(new ChangeSet(tx, collection)));

  /**
   * Upserts in body order: update when the id names an existing record (as this
   * request left it), else create under a new id. The named records are read (and
   * locked) first, in one go.
   */
  const upsertAll = async (set: ChangeSet, bodies: Body[], call: OperationCall, at: (i: number) => string) => {
    const named = bodies.flatMap((body) => (body.id === undefined ? [] : [body.id]));
    // Records this request has put so far: those it read, and those it created (a later body may name one).
    const known = new Set((await set.getMany(named)).map((record) => record.id));
    // At most this many creates; ids left over are skipped, never reused.
    const ids = await set.newIds(bodies.filter((body) => body.id === undefined || !known.has(body.id)).length);
    const results: { record: StoredRecord; existed: boolean }[] = [];
    for (const [i, body] of bodies.entries()) {
      const existing = body.id !== undefined && known.has(body.id) ? await set.get(body.id) : undefined;
      const record = existing ? update(set, existing, body, at(i), call) : create(set, ids.shift() as RecordId, body, at(i), call);
      known.add(record.id);
      results.push({ record, existed: existing !== undefined });
    }
    return results;
  };

  /** What a list answers: the page in the listing's shape (or the wire profile's). */
  const listed = (result: PageResult, request: PageRequest, profile: PageProfile | undefined): OperationOutcome =>
    shapedPage('nested', result.items, result, request, profile);

  /** What a get by id answers: the record, or 404. */
  const answered = (record: StoredRecord | undefined, id: RecordId): OperationOutcome => {
    if (!record) throw notFound(noun, [id]);
    return { data: record, message: `${Noun} ${record.id}` };
  };

  return {
    // Reads without `async` and without a closure: a store that answers at once answers
    // the request at once (no promise).
    get: ({ params }, { store }) => {
      const id = params.id as RecordId;
      const record = store.get(collection, id);
      return record instanceof Promise ? record.then((found) => answered(found, id)) : answered(record, id);
    },

    list: (call, { store, options }) => {
      const request = requestedPage(call);
      const result = store.page(collection, { offset: request.offset, limit: request.limit, sort: request.sort });
      const profile = options.wire?.page;
      return result instanceof Promise ? result.then((settled) => listed(settled, request, profile)) : listed(result, request, profile);
    },

    create: (call, ctx) =>
      write(ctx, async (set) => {
        const [id] = await set.newIds(1);
        const record = create(set, id as number, call.body as Body, 'body', call);
        return { data: record, message: `${Noun} ${record.id} created` };
      }),

    createBulk: (call, ctx) =>
      write(ctx, async (set) => {
        const bodies = call.body as Body[];
        const ids = await set.newIds(bodies.length);
        const records = bodies.map((body, i) => create(set, ids[i] as RecordId, body, `body[${i}]`, call));
        return { data: records, message: `${counted(records.length, noun)} created` };
      }),

    update: (call, ctx) => {
      const id = call.params.id as RecordId;
      const body = (call.body ?? {}) as Body;
      if (body.id !== undefined && body.id !== id) throw badField('body.id', `must match the id in the path (${id})`);
      return write(ctx, async (set) => {
        const [existing] = await set.existing([id], noun);
        const record = update(set, existing as StoredRecord, body, 'body', call);
        return { data: record, message: `${Noun} ${id} updated` };
      });
    },

    updateBulk: (call, ctx) => {
      const bodies = (call.body ?? []) as Body[];
      const unnamed = bodies.findIndex((body) => body.id === undefined);
      if (unnamed >= 0) throw badField(`body[${unnamed}].id`, 'every record of a bulk update needs its id');
      return write(ctx, async (set) => {
        await set.existing(
          bodies.map((body) => body.id as RecordId),
          noun,
        );
        const records: StoredRecord[] = [];
        // Read each at its turn: a body naming an id twice builds on its own earlier update.
        for (const [i, body] of bodies.entries()) records.push(update(set, (await set.get(body.id as RecordId)) as StoredRecord, body, `body[${i}]`, call));
        return { data: records, message: `${counted(records.length, noun)} updated` };
      });
    },

    upsert: (call, ctx) =>
      write(ctx, async (set) => {
        const [result] = await upsertAll(set, [(call.body ?? {}) as Body], call, () => 'body');
        const { record, existed } = result as { record: StoredRecord; existed: boolean };
        return { data: record, message: `${Noun} ${record.id} ${existed ? 'updated' : 'created'}` };
      }),

    upsertBulk: (call, ctx) =>
      write(ctx, async (set) => {
        const results = await upsertAll(set, (call.body ?? []) as Body[], call, (i) => `body[${i}]`);
        return { data: results.map((r) => r.record), message: `${counted(results.length, noun)} created or updated` };
      }),

    delete: ({ params }, ctx) =>
      write(ctx, async (set) => {
        await set.existing([params.id as RecordId], noun);
        set.delete(params.id as RecordId);
        return { message: `${Noun} ${String(params.id)} deleted` };
      }),

    deleteBulk: ({ body }, ctx) =>
      write(ctx, async (set) => {
        const records = new Set(await set.existing(body as (number | bigint)[], noun));
        for (const record of records) set.delete(record.id);
        // The ids named: a bulk answer confirms only the items it names (src/confirm/item-results.ts).
        return { message: `${counted(records.size, noun)} deleted: ${[...records].map((record) => String(record.id)).join(', ')}` };
      }),

    meta: async (_call, { store }) => ({ data: describeRecords(resource.typeName, await store.find(collection), SERVER_OWNED) }),
  } satisfies Record<string, OperationHandler>;
}
