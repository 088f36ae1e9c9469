import { jsonText } from '../json/json-text.js';
import { EqualityIndex, indexEquals } from './equality-index.js';
import { byIdAscending, comparatorFor, fieldValue, sortSignature } from './record-order.js';
import type { RecordComparator } from './record-order.js';
import { SortedList } from './sorted-list.js';
import type { PageResult, RecordId, SortKey, StoredRecord } from './types.js';

/** A page of one table: the file store's form of a query (an index group, then a filter). */
export interface TableQuery {
  /** Zero-based index of the first record of the page. */
  offset: number;
  limit: number;
  /** Sort keys in order of precedence; default is id ascending (= creation order). */
  sort?: readonly SortKey[];
  /** Only records whose field equals the value (an equality index when the field has one). */
  index?: { field: string; value: unknown };
  /** Further filter, applied after `index`. */
  where?: (record: StoredRecord) => boolean;
}

// Sorted orders kept per table (of the whole table or of one index group); the least
// recently used one is dropped beyond this, so a client cycling through odd sorts
// costs memory once, not forever.
const MAX_SORTED_VIEWS = 8;

// From this many deletes in one commit, each order is filtered once instead of
// spliced once per record (a user's 100,000 notifications went one splice at a time).
const BATCH_DELETES = 32;

// A commit putting more records than this into a table drops its sorted orders rather
// than inserting into each one by one; the next sorted read builds them again, once.
const BATCH_PUTS = 1000;

/** A kept sorted order: of every record, or of those whose `group.field` equals `group.value`. */
interface SortedView {
  list: SortedList;
  group?: { field: string; value: unknown };
}

function inView(view: SortedView, record: StoredRecord): boolean {
  return view.group === undefined || indexEquals(fieldValue(record, view.group.field), view.group.value);
}

/** Read access to records in some order without copying them. */
interface Ordered {
  readonly length: number;
  at(position: number): StoredRecord;
}

function ascending(items: readonly StoredRecord[]): Ordered {
  return { length: items.length, at: (position) => items[position] as StoredRecord };
}

function descending(items: readonly StoredRecord[]): Ordered {
  const last = items.length - 1;
  return { length: items.length, at: (position) => items[last - position] as StoredRecord };
}

function isIdSort(sort: readonly SortKey[]): boolean {
  return sort.length === 0 || sort[0]?.field === 'id';
}

/**
 * One collection in memory: records by id, in id (= creation) order, grouped by each
 * indexed field, and in each recently requested sort order. Every order is maintained
 * on write, so a page read costs the page, not the table; only `where` filters scan.
 */
export class Table {
  private readonly byId = new Map<RecordId, StoredRecord>();
  private readonly rows = new SortedList(byIdAscending);
  private readonly indexes = new Map<string, EqualityIndex>();
  private readonly sortedViews = new Map<string, SortedView>();

  constructor(indexedFields: readonly string[] = []) {
    for (const field of indexedFields) this.indexes.set(field, new EqualityIndex(field));
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: RecordId): StoredRecord | undefined {
    return this.byId.get(id);
  }

  put(record: StoredRecord): void {
    const previous = this.byId.get(record.id);
    this.byId.set(record.id, record);
    if (previous === undefined) {
      this.rows.insert(record);
      for (const index of this.indexes.values()) index.add(record);
      for (const view of this.sortedViews.values()) if (inView(view, record)) view.list.insert(record);
    } else {
      this.rows.replace(previous, record);
      for (const index of this.indexes.values()) index.replace(previous, record);
      for (const view of this.sortedViews.values()) {
        const was = inView(view, previous);
        const is = inView(view, record);
        if (was && is) view.list.replace(previous, record);
        else if (was) view.list.remove(previous);
        else if (is) view.list.insert(record);
      }
    }
  }

  delete(id: RecordId): void {
    const previous = this.byId.get(id);
    if (previous === undefined) return;
    this.byId.delete(id);
    this.rows.remove(previous);
    for (const index of this.indexes.values()) index.remove(previous);
    for (const view of this.sortedViews.values()) if (inView(view, previous)) view.list.remove(previous);
  }

  /** Deletes many records; unknown ids are skipped. */
  deleteMany(ids: Iterable<RecordId>): void {
    const doomed = new Set<StoredRecord>();
    for (const id of ids) {
      const previous = this.byId.get(id);
      if (previous !== undefined) doomed.add(previous);
    }
    if (doomed.size < BATCH_DELETES) {
      for (const record of doomed) this.delete(record.id);
      return;
    }
    for (const record of doomed) this.byId.delete(record.id);
    this.rows.removeAll(doomed);
    for (const index of this.indexes.values()) index.removeAll(doomed);
    for (const view of this.sortedViews.values()) view.list.removeAll(doomed);
  }

  /** Called before a commit puts `count` records: a large one drops the sorted orders (a cache) instead of inserting into each. */
  expectPuts(count: number): void {
    if (count > BATCH_PUTS) this.sortedViews.clear();
  }

  clear(): void {
    this.byId.clear();
    this.rows.items.length = 0;
    for (const index of this.indexes.values()) index.clear();
    this.sortedViews.clear();
  }

  /** The table's own id-ordered array; callers copy it before the next write if they keep it. */
  inIdOrder(): readonly StoredRecord[] {
    return this.rows.items;
  }

  findBy(field: string, value: unknown): StoredRecord[] {
    const index = this.indexes.get(field);
    if (index !== undefined) return index.lookup(value).slice();
    return this.rows.items.filter((record) => indexEquals(fieldValue(record, field), value));
  }

  page(query: TableQuery): PageResult {
    const sort = query.sort ?? [];
    const ordered = this.orderedFor(sort, query.index);
    const { offset, limit, where } = query;
    if (where === undefined) {
      const end = Math.min(ordered.length, offset + limit);
      const items: StoredRecord[] = [];
      for (let position = offset; position < end; position++) items.push(ordered.at(position));
      return { items, total: ordered.length };
    }
    const items: StoredRecord[] = [];
    let total = 0;
    for (let position = 0; position < ordered.length; position++) {
      const record = ordered.at(position);
      if (!where(record)) continue;
      if (total >= offset && items.length < limit) items.push(record);
      total++;
    }
    return { items, total };
  }

  private orderedFor(sort: readonly SortKey[], match: TableQuery['index']): Ordered {
    const idDescending = sort[0]?.field === 'id' && sort[0].direction === 'desc';
    if (match !== undefined && isIdSort(sort)) {
      const index = this.indexes.get(match.field);
      const group = index !== undefined ? index.lookup(match.value) : this.findBy(match.field, match.value);
      return idDescending ? descending(group) : ascending(group);
    }
    if (match === undefined && isIdSort(sort)) return idDescending ? descending(this.rows.items) : ascending(this.rows.items);
    // A descending sort is kept in reverse and read backwards: a new record (highest id,
    // often the newest date) then lands at the array's end, a push rather than a splice at 0.
    const reversed = sort[0]?.direction === 'desc';
    const items = this.sortedView(sort, reversed, match).items;
    return reversed ? descending(items) : ascending(items);
  }

  /**
   * The kept order for a sort, of the whole table or of one index group (a user with
   * 100,000 notifications must not cost a sort of them per page), built on first use.
   */
  private sortedView(sort: readonly SortKey[], reversed: boolean, group: TableQuery['index']): SortedList {
    let signature = sortSignature(sort);
    if (group !== undefined) signature += `\u0000${group.field}\u0000${typeof group.value}:${String(jsonText(group.value))}`;
    let view = this.sortedViews.get(signature);
    if (view !== undefined) {
      // Re-inserting marks it most recently used (Maps keep insertion order).
      this.sortedViews.delete(signature);
    } else {
      const forward = comparatorFor(sort);
      const compare: RecordComparator = reversed ? (a, b) => forward(b, a) : forward;
      const records = group === undefined ? this.rows.items.slice() : this.findBy(group.field, group.value);
      view = { list: new SortedList(compare, records), ...(group !== undefined ? { group: { field: group.field, value: group.value } } : {}) };
      if (this.sortedViews.size >= MAX_SORTED_VIEWS) {
        const oldest = this.sortedViews.keys().next();
        if (oldest.done !== true) this.sortedViews.delete(oldest.value);
      }
    }
    this.sortedViews.set(signature, view);
    return view.list;
  }
}
