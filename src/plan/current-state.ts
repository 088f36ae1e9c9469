/**
 * Reading the current state of many records, cheaply. A GET per id costs one
 * request per record; the list operation answers up to a thousand records a
 * request. When the ids are many compared with the table, reading the whole table
 * by pages (several at once) costs far fewer requests than a GET each, so a plan
 * or a dry run of 100,000 ids takes seconds. Used by `--plan`, `--dry-run`,
 * `--skip-unchanged`, undo and the records-before of protected environments.
 */
import { type RecordId, toRecordId } from '../contract/ids.js';
import { operation, stateSource, type OperationId } from '../contract/operations.js';
import type { PlaClient } from '../client/types.js';
import { TaskPool } from '../bulk/pool.js';
import type { Progress, StartProgress } from '../bulk/progress.js';
import { NotFoundError, RejectedError } from '../errors.js';
import { modificationOf } from './record-diff.js';
import type { StoredRecordLike, Watermark } from './types.js';

/** The operations that read a resource: one record by id, and the paged list. */
export interface StateSource {
  get: OperationId;
  list: OperationId;
}

/** The read and listing the contract rows of `resource` name; a resource without them cannot be planned. */
export function stateOf(resource: string): StateSource {
  const source = stateSource(resource);
  if (!source) throw new Error(`${resource} has no read by id and listing to read its current state with`);
  return source;
}

export interface ReadStateOptions {
  signal?: AbortSignal;
  /** Starts a progress bar (none where there is no terminal). */
  progress?: StartProgress;
}

/** Records a page of the list asks for; a service that refuses it is asked for the listing's default size (its row's `paging`). */
const PAGE_SIZE = 1000;
/**
 * What one page of a thousand records costs compared with one GET: more bytes,
 * but one round trip and one request's overhead. Measured against the local
 * server a page of 1000 takes about as long as a dozen GETs.
 */
const GETS_PER_PAGE = 12;
/** Up to this many ids are read one GET each without asking how big the table is. */
const FEW_IDS = 16;
const GETS_AT_ONCE = 8;
const PAGES_AT_ONCE = 4;

function progressBar(options: ReadStateOptions, total: number): Promise<Progress | undefined> {
  return options.progress?.(total) ?? Promise.resolve(undefined);
}

/**
 * Runs `work` for each item, `atOnce` at a time, with a progress bar of `items.length`
 * steps (plus `doneAlready`). The first failure stops new work and is thrown once the
 * work under way has ended; `stop()` ends early without an error.
 */
async function eachBounded<T>(
  items: readonly T[],
  atOnce: number,
  options: ReadStateOptions,
  work: (item: T) => Promise<void>,
  { doneAlready = 0, stop = () => false }: { doneAlready?: number; stop?: () => boolean } = {},
): Promise<void> {
  const bar = await progressBar(options, items.length + doneAlready);
  const pool = new TaskPool(atOnce);
  let failure: { error: unknown } | undefined;
  let done = doneAlready;
  try {
    for (const item of items) {
      if (failure || options.signal?.aborted || stop()) break;
      await pool.whenFree();
      pool.start(async () => {
        try {
          await work(item);
        } catch (error) {
          failure ??= { error };
        }
        bar?.update(++done);
      });
    }
    await pool.drain();
  } finally {
    bar?.finish();
  }
  if (failure) throw failure.error;
  options.signal?.throwIfAborted();
}

/** One GET per id, a few at once; an unknown id is simply absent from the result. */
async function readById<Id extends RecordId>(client: PlaClient, source: StateSource, ids: Id[], options: ReadStateOptions): Promise<Map<Id, StoredRecordLike>> {
  const found = new Map<Id, StoredRecordLike>();
  await eachBounded(ids, GETS_AT_ONCE, options, async (id) => {
    try {
      const { data } = await client.call<StoredRecordLike>(source.get, { params: { id }, signal: options.signal });
      if (data && typeof data === 'object') found.set(id, data);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  });
  return found;
}

/**
 * A walk of the list and its first page, at the largest size the service accepts.
 * Every page read here goes through the client's page walker: numbers and sizes
 * checked, a one-based or capping service handled, drift an error at the end.
 */
async function firstPage(client: PlaClient, list: OperationId, signal: AbortSignal | undefined) {
  try {
    const walk = client.walk<StoredRecordLike>(list, { paging: { size: PAGE_SIZE }, signal });
    return { walk, first: await walk.read(0) };
  } catch (error) {
    if (!(error instanceof RejectedError)) throw error;
    const walk = client.walk<StoredRecordLike>(list, { paging: { size: operation(list).paging?.defaultSize }, signal });
    return { walk, first: await walk.read(0) };
  }
}

/**
 * The current records of `ids` (unknown ids are absent), read by pages of the list
 * when that costs fewer requests than a GET each, else one GET per id. Records
 * added or removed while the pages are read are an error (`PagingDriftError`): a
 * plan must not be made from a listing that may have missed some.
 */
export async function readCurrentState(
  client: PlaClient,
  source: StateSource,
  ids: Iterable<RecordId>,
  options: ReadStateOptions = {},
): Promise<Map<RecordId, StoredRecordLike>> {
  const wanted = new Set(ids);
  if (wanted.size === 0) return new Map();
  if (wanted.size <= FEW_IDS) return readById(client, source, [...wanted], options);

  const { walk, first } = await firstPage(client, source.list, options.signal);
  const pages = first.totalPages ?? (first.totalElements === undefined ? undefined : Math.ceil(first.totalElements / first.size));
  // Without a total the table's size is unknown: pages are still read, one after another.
  if (pages !== undefined && pages * GETS_PER_PAGE > wanted.size) return readById(client, source, [...wanted], options);

  const found = new Map<RecordId, StoredRecordLike>();
  const keep = (items: StoredRecordLike[]) => {
    for (const record of items) {
      const id = toRecordId(record.id);
      if (id !== undefined && wanted.has(id)) found.set(id, record);
    }
  };
  keep(first.items);
  if (first.last || pages === undefined) {
    for (let number = 1, page = first; !page.last; number += 1) keep((page = await walk.read(number)).items);
    walk.finish({ complete: true });
    return found;
  }

  await walk.settle();
  const rest = Array.from({ length: pages - 1 }, (_, i) => i + 1);
  await eachBounded(rest, PAGES_AT_ONCE, options, async (number) => keep((await walk.read(number)).items), {
    doneAlready: 1,
    stop: () => found.size === wanted.size,
  });
  walk.finish({ complete: found.size < wanted.size });
  return found;
}

/**
 * The current records of ids, keyed by their decimal text: the records before of a
 * protected environment's runs, whatever ids they name (answers are read exactly,
 * so a listing tells ids past 2^53 apart as well as any).
 */
export async function readCurrentByText(
  client: PlaClient,
  source: StateSource,
  ids: Iterable<RecordId>,
  options: ReadStateOptions = {},
): Promise<Map<string, StoredRecordLike>> {
  const current = await readCurrentState(client, source, ids, options);
  return new Map<string, StoredRecordLike>([...current].map(([id, record]) => [String(id), record]));
}

/** Orders two modification stamps: as dates when both parse, else as text. */
export function compareStamps(a: string, b: string): number {
  const x = Date.parse(a);
  const y = Date.parse(b);
  if (!Number.isNaN(x) && !Number.isNaN(y) && x !== y) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The newest modification stamp the service knows of, read before a plan reads the
 * records: whatever changes after it carries a later stamp. `undefined` when the
 * records carry none or the list cannot be sorted by it (apply then re-reads).
 */
export async function probeWatermark(client: PlaClient, list: OperationId, signal?: AbortSignal): Promise<Watermark | undefined> {
  const sample = await client.page(list, { paging: { page: 0, size: 1 }, signal });
  const stamp = sample.items[0] ? modificationOf(sample.items[0]) : undefined;
  if (!stamp) return undefined;
  try {
    const newest = await client.page(list, { paging: { page: 0, size: 1, sort: [`${stamp.field},desc`] }, signal });
    const value = newest.items[0]?.[stamp.field];
    return typeof value === 'string' ? { field: stamp.field, value } : undefined;
  } catch (error) {
    if (error instanceof RejectedError) return undefined;
    throw error;
  }
}

/**
 * Every record modified at or after `since` (newest first, by pages until an older
 * one), and the newest stamp seen: the records someone may have changed since a
 * plan read them, in as many requests as there are such changes per thousand.
 */
export async function changedSince(
  client: PlaClient,
  list: OperationId,
  since: Watermark,
  signal?: AbortSignal,
): Promise<{ records: StoredRecordLike[]; newest: string }> {
  const records: StoredRecordLike[] = [];
  let newest = since.value;
  // A record changed during this read moves to the front, behind the cursor: it is
  // not missed, its stamp is after `newest` and the next read finds it. So drift is no error here.
  const paging = { page: 0, size: PAGE_SIZE, sort: [`${since.field},desc`] };
  for await (const page of client.pages<StoredRecordLike>(list, { paging, signal, allowDrift: true })) {
    for (const record of page.items) {
      const stamp = record[since.field];
      if (typeof stamp !== 'string' || compareStamps(stamp, since.value) < 0) return { records, newest };
      if (compareStamps(stamp, newest) > 0) newest = stamp;
      records.push(record);
    }
  }
  return { records, newest };
}
