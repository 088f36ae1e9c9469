/**
 * A small stateful service in the forms a Spring-style service may answer in and
 * our local server does not produce (a gateway's HTML page answered 200,
 * `{"code": 500, "msg": …}`, `{"success": "false"}`, bulk answers that leave
 * items out …). It holds determinations and tasks, carries out what it is asked
 * as a plain service would, and lets each test decide, per write, whether it is
 * carried out and what is answered. `records()` is what it holds afterwards.
 */
import { type FakeReply, type FakeServer, type LoggedRequest, startFakeServer } from './fake-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const TASKS = '/api/v1/batch/mass-inter-company-transfer/tasks';

export type Collection = 'determinations' | 'tasks';
export type StoredRecord = Record<string, unknown> & { id: number };

/** One write the service received. */
export interface WriteRequest {
  /** `delete`, `update`, `create`, `remove`, `cancel`, and their bulk forms (`deleteBulk`, `cancelBulk`, `updateBulk`, `upsertBulk`, `createBulk`). */
  verb: string;
  collection: Collection;
  id?: number;
  body: unknown;
  /** Carries the write out as a plain service would and returns the data it would answer (a refusal throws a `Refusal`). */
  apply(): unknown;
  /** Of a bulk request: each item, to be carried out alone. */
  items?: BulkItem[];
}

/** One item of a bulk request. */
export interface BulkItem {
  value: unknown;
  id?: number;
  /** Carries out this item alone; a refusal throws a `Refusal`. */
  apply(): unknown;
}

/** A plain service's refusal of a write, with its status. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SpringStyleOptions {
  /** Answers a write; default: carry it out and answer `{"data": …}` (a refusal: its status and `{"message"}`). */
  write?: (request: WriteRequest) => FakeReply;
  /** A missing record's read answers 200 `{"data": null}` instead of 404. */
  softNotFound?: boolean;
  /** The task search answers every task whatever its filter (a service that does not apply it). */
  ignoresFilters?: boolean;
  /** Answers a listing (`GET` of a collection) of `records`; default a shape-B page of them all in `{"data"}`. */
  listing?: (records: StoredRecord[], request: LoggedRequest) => FakeReply;
  /** Answers a read by id (`record` undefined: there is none); default `{"data": record}`, else 404 (or the soft 404). */
  read?: (record: StoredRecord | undefined, id: number) => FakeReply;
  /** Determinations held at the start instead of the four of the default (ids 1–4). */
  determinations?: StoredRecord[];
  /** The status a remove gives a record in use (default `DECOMMISSIONED`). */
  decommissionedAs?: string;
}

export interface SpringStyleService {
  url: string;
  server: FakeServer;
  /** The records held now, by id. */
  records(collection: Collection): StoredRecord[];
  record(collection: Collection, id: number): StoredRecord | undefined;
  close(): Promise<void>;
}

/** A sign-in page as a gateway answers it, with status 200. */
export const SIGN_IN_PAGE: FakeReply = {
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: '<!doctype html><html><head><title>Sign in - Corporate SSO</title></head><body><form>…</form></body></html>',
};

/** The answer a plain service gives for `apply()`'s outcome. */
export function plainAnswer(request: WriteRequest): FakeReply {
  try {
    return { body: { data: request.apply() ?? null } };
  } catch (error) {
    if (error instanceof Refusal) return { status: error.status, body: { message: error.message } };
    throw error;
  }
}

/** Answers writes of `verb` with `reply` (carried out first when `apply`), others as a plain service. */
export function answering(verb: string, reply: FakeReply | ((request: WriteRequest) => FakeReply), apply: boolean): SpringStyleOptions['write'] {
  return (request) => {
    if (request.verb !== verb) return plainAnswer(request);
    if (apply) request.apply();
    return typeof reply === 'function' ? reply(request) : reply;
  };
}

export async function startSpringStyleService(options: SpringStyleOptions = {}): Promise<SpringStyleService> {
  const held: Record<Collection, Map<number, StoredRecord>> = {
    determinations: new Map(
      (
        options.determinations ?? [
          { id: 1, code: 'ATD-ACQ', status: 'ACTIVE', inUse: true },
          { id: 2, code: 'ATD-RET', status: 'ACTIVE', inUse: false },
          { id: 3, code: 'ATD-TRF', status: 'ACTIVE', inUse: false },
          { id: 4, code: 'ATD-IMP', status: 'ACTIVE', inUse: false },
        ]
      ).map((r) => [r.id, r]),
    ),
    tasks: new Map(
      [
        { id: 10, status: 'PENDING' },
        { id: 11, status: 'RUNNING' },
        { id: 12, status: 'COMPLETED' },
      ].map((r) => [r.id, r]),
    ),
  };
  let nextId = 100;

  const existing = (collection: Collection, id: number) => {
    const record = held[collection].get(id);
    if (!record) throw new Refusal(404, `${collection === 'tasks' ? 'task' : 'determination'} ${id} not found`);
    return record;
  };
  const cancellable = (id: number) => {
    const { status } = existing('tasks', id);
    if (status !== 'PENDING' && status !== 'RUNNING') throw new Refusal(409, `task ${id} is already ${String(status)}`);
  };
  const verbs = {
    delete: (c: Collection, id: number) => void (existing(c, id), held[c].delete(id)),
    update: (c: Collection, id: number, body: Record<string, unknown>) => {
      const record = { ...existing(c, id), ...body, id };
      held[c].set(id, record);
      return record;
    },
    create: (c: Collection, body: Record<string, unknown>) => {
      const record = { ...body, id: nextId++ };
      held[c].set(record.id, record);
      return record;
    },
    remove: (id: number) => {
      const record = existing('determinations', id);
      if (record.inUse === true) held.determinations.set(id, { ...record, status: options.decommissionedAs ?? 'DECOMMISSIONED' });
      else held.determinations.delete(id);
    },
    cancel: (id: number) => {
      cancellable(id);
      held.tasks.set(id, { ...existing('tasks', id), status: 'CANCELLED' });
    },
  };

  const write = (verb: string, collection: Collection, body: unknown, apply: () => unknown, id?: number, items?: BulkItem[]): FakeReply => {
    const request: WriteRequest = { verb, collection, body, apply, ...(id !== undefined ? { id } : {}), ...(items ? { items } : {}) };
    return (options.write ?? plainAnswer)(request);
  };
  const ids = (body: unknown) => (Array.isArray(body) ? (body as number[]) : []);
  /** The items of a bulk body, each to be carried out alone (a per-item service). */
  const itemsOf = (body: unknown, applyOne: (value: never) => unknown): BulkItem[] =>
    (Array.isArray(body) ? (body as unknown[]) : []).map((value) => ({
      value,
      ...(typeof value === 'number' ? { id: value } : typeof (value as { id?: unknown }).id === 'number' ? { id: (value as { id: number }).id } : {}),
      apply: () => applyOne(value as never),
    }));

  const route = (req: LoggedRequest): FakeReply => {
    const { method, path } = req;
    const body = req.body as Record<string, unknown>;
    for (const [prefix, collection] of [
      [DET, 'determinations'],
      [TASKS, 'tasks'],
    ] as const) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const one = /^\/(\d+)$/.exec(rest);
      if (method === 'GET' && one) {
        const record = held[collection].get(Number(one[1]));
        if (options.read) return options.read(record, Number(one[1]));
        if (record) return { body: { data: record } };
        return options.softNotFound ? { body: { data: null } } : { status: 404, body: { message: 'not found' } };
      }
      if (method === 'POST' && rest === '/search' && collection === 'tasks') {
        const filter = (options.ignoresFilters ? {} : (req.body ?? {})) as Record<string, unknown>;
        const content = [...held.tasks.values()].filter((task) =>
          Object.entries(filter).every(([field, wanted]) => (Array.isArray(wanted) ? wanted.includes(task[field]) : task[field] === wanted)),
        );
        return { body: { data: { content, page: { number: 0, size: 100, totalElements: content.length, totalPages: 1 } } } };
      }
      if (method === 'GET' && rest === '') {
        const content = [...held[collection].values()];
        if (options.listing) return options.listing(content, req);
        return { body: { data: { content, page: { number: 0, size: 100, totalElements: content.length, totalPages: 1 } } } };
      }
      if (method === 'DELETE' && one) return write('delete', collection, undefined, () => verbs.delete(collection, Number(one[1])), Number(one[1]));
      if (method === 'PUT' && one) return write('update', collection, body, () => verbs.update(collection, Number(one[1]), body), Number(one[1]));
      if (method === 'POST' && rest === '') return write('create', collection, body, () => verbs.create(collection, body));
      /** A bulk request of ids, all or nothing: every id checked by `check` before `each` runs on any. */
      const idsBulk = (verb: string, check: (id: number) => void, each: (id: number) => unknown) =>
        write(
          verb,
          collection,
          req.body,
          () => {
            for (const id of ids(req.body)) check(id);
            for (const id of ids(req.body)) each(id);
          },
          undefined,
          itemsOf(req.body, each),
        );
      const exists = (id: number) => void existing(collection, id);
      if (method === 'DELETE' && rest === '/bulk') return idsBulk('deleteBulk', exists, (id) => verbs.delete(collection, id));
      if (method === 'PUT' && rest === '/createOrUpdate/bulk') {
        const records = Array.isArray(req.body) ? (req.body as Array<Record<string, unknown>>) : [];
        const upsert = (r: Record<string, unknown>) =>
          typeof r.id === 'number' && held[collection].has(r.id) ? verbs.update(collection, r.id, r) : verbs.create(collection, r);
        return write('upsertBulk', collection, req.body, () => records.map(upsert), undefined, itemsOf(req.body, upsert));
      }
      if (method === 'PUT' && rest === '/bulk') {
        const records = Array.isArray(req.body) ? (req.body as Array<Record<string, unknown>>) : [];
        const update = (r: Record<string, unknown>) => verbs.update(collection, Number(r.id), r);
        return write('updateBulk', collection, req.body, () => records.map(update), undefined, itemsOf(req.body, update));
      }
      if (method === 'POST' && rest === '/bulk') {
        const records = Array.isArray(req.body) ? (req.body as Array<Record<string, unknown>>) : [];
        const create = (r: Record<string, unknown>) => verbs.create(collection, r);
        return write('createBulk', collection, req.body, () => records.map(create), undefined, itemsOf(req.body, create));
      }
      const removeOne = /^\/remove\/(\d+)$/.exec(rest);
      if (method === 'PUT' && removeOne) return write('remove', collection, undefined, () => verbs.remove(Number(removeOne[1])), Number(removeOne[1]));
      if (method === 'PUT' && rest === '/remove/bulk') return idsBulk('removeBulk', exists, (id) => verbs.remove(id));
      const cancelOne = /^\/cancel\/(\d+)$/.exec(rest);
      if (method === 'POST' && cancelOne) return write('cancel', collection, undefined, () => verbs.cancel(Number(cancelOne[1])), Number(cancelOne[1]));
      if (method === 'POST' && rest === '/cancel/bulk') return idsBulk('cancelBulk', cancellable, (id) => verbs.cancel(id));
    }
    return { status: 404, body: { message: `no route ${method} ${path}` } };
  };

  const server = await startFakeServer([{ path: /.*/, reply: route }]);
  return {
    url: server.url,
    server,
    records: (collection) => [...held[collection].values()],
    record: (collection, id) => held[collection].get(id),
    close: () => server.close(),
  };
}
