/**
 * The record operations determinations, settings and tasks share: get, list,
 * create, update, upsert, delete, their bulk variants and meta. Records are open
 * JSON objects; the server owns `id`, `createdAt` and `updatedAt`. Resource rules
 * (status values, transitions) come in through `prepare`.
 */
import { capitalised, counted, type Noun } from '../../contract/wording.js';
import type { CollectionName, StoredRecord } from '../../store/types.js';
import { ChangeSet } from '../change-set.js';
import type { OperationCall, OperationHandler, ServerContext } from '../context.js';
import { describeRecords } from '../meta-schema.js';
import { pageB, requestedPage } from '../paging.js';
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

type Body = Record<string, unknown> & { id?: number };

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

  const create = (set: ChangeSet, body: Body, at: string, call: OperationCall, ctx: ServerContext) => {
    const record = { id: ctx.store.allocateId(collection), ...clientFields(body), createdAt: call.now, updatedAt: call.now };
    return set.put(prepare(record, undefined, at, call.now));
  };
  const update = (set: ChangeSet, existing: StoredRecord, body: Body, at: string, call: OperationCall) => {
    const record = { ...existing, ...clientFields(body), id: existing.id, createdAt: existing.createdAt, updatedAt: call.now };
    return set.put(prepare(record, existing, at, call.now));
  };
  /** Update when the id names an existing record, else create. */
  const upsert = (set: ChangeSet, body: Body, at: string, call: OperationCall, ctx: ServerContext) => {
    const existing = body.id === undefined ? undefined : set.get(body.id);
    return existing ? update(set, existing, body, at, call) : create(set, body, at, call, ctx);
  };

  return {
    get: ({ params }, { store }) => {
      const record = store.get(collection, params.id as number);
      if (!record) throw notFound(noun, [params.id as number]);
      return { data: record, message: `${Noun} ${record.id}` };
    },

    list: (call, { store }) => {
      const request = requestedPage(call);
      const result = store.page(collection, { offset: request.offset, limit: request.limit, sort: request.sort });
      return { data: pageB(result.items, result, request) };
    },

    create: async (call, ctx) => {
      const set = new ChangeSet(ctx.store, collection);
      const record = create(set, call.body as Body, 'body', call, ctx);
      await set.commit();
      return { data: record, message: `${Noun} ${record.id} created` };
    },

    createBulk: async (call, ctx) => {
      const set = new ChangeSet(ctx.store, collection);
      const records = (call.body as Body[]).map((body, i) => create(set, body, `body[${i}]`, call, ctx));
      await set.commit();
      return { data: records, message: `${counted(records.length, noun)} created` };
    },

    update: async (call, ctx) => {
      const id = call.params.id as number;
      const body = (call.body ?? {}) as Body;
      if (body.id !== undefined && body.id !== id) throw badField('body.id', `must match the id in the path (${id})`);
      const set = new ChangeSet(ctx.store, collection);
      const [existing] = set.existing([id], noun);
      const record = update(set, existing as StoredRecord, body, 'body', call);
      await set.commit();
      return { data: record, message: `${Noun} ${id} updated` };
    },

    updateBulk: async (call, ctx) => {
      const bodies = (call.body ?? []) as Body[];
      const unnamed = bodies.findIndex((body) => body.id === undefined);
      if (unnamed >= 0) throw badField(`body[${unnamed}].id`, 'every record of a bulk update needs its id');
      const set = new ChangeSet(ctx.store, collection);
      set.existing(bodies.map((body) => body.id as number), noun);
      // Read each at its turn: a body naming an id twice builds on its own earlier update.
      const records = bodies.map((body, i) => update(set, set.get(body.id as number) as StoredRecord, body, `body[${i}]`, call));
      await set.commit();
      return { data: records, message: `${counted(records.length, noun)} updated` };
    },

    upsert: async (call, ctx) => {
      const set = new ChangeSet(ctx.store, collection);
      const body = (call.body ?? {}) as Body;
      const existed = body.id !== undefined && set.get(body.id) !== undefined;
      const record = upsert(set, body, 'body', call, ctx);
      await set.commit();
      return { data: record, message: `${Noun} ${record.id} ${existed ? 'updated' : 'created'}` };
    },

    upsertBulk: async (call, ctx) => {
      const set = new ChangeSet(ctx.store, collection);
      const records = ((call.body ?? []) as Body[]).map((body, i) => upsert(set, body, `body[${i}]`, call, ctx));
      await set.commit();
      return { data: records, message: `${counted(records.length, noun)} created or updated` };
    },

    delete: async ({ params }, { store }) => {
      const set = new ChangeSet(store, collection);
      set.existing([params.id as number], noun);
      set.delete(params.id as number);
      await set.commit();
      return { message: `${Noun} ${String(params.id)} deleted` };
    },

    deleteBulk: async ({ body }, { store }) => {
      const ids = body as number[];
      const set = new ChangeSet(store, collection);
      set.existing(ids, noun);
      for (const id of ids) set.delete(id);
      await set.commit();
      return { message: `${counted(new Set(ids).size, noun)} deleted` };
    },

    meta: (_call, { store }) => ({ data: describeRecords(resource.typeName, store.all(collection), SERVER_OWNED) }),
  } satisfies Record<string, OperationHandler>;
}
