import { EqualityIndex, indexEquals } from './equality-index.js';
import { byIdAscending, comparatorFor, fieldValue, sortSignature } from './record-order.js';
import type { RecordComparator } from './record-order.js';
import { SortedList } from './sorted-list.js';
import type { PageQuery, PageResult, SortKey, StoredRecord } from './types.js';

// Sorted orders kept per table; the least recently used one is dropped beyond this,
// so a client cycling through odd sorts costs memory once, not forever.
const MAX_SORTED_VIEWS = 8;

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
  private readonly byId = new Map<number, StoredRecord>();
  private readonly rows = new SortedList(byIdAscending);
  private readonly indexes = new Map<string, EqualityIndex>();
  private readonly sortedViews = new Map<string, SortedList>();

  constructor(indexedFields: readonly string[] = []) {
    for (const field of indexedFields) this.indexes.set(field, new EqualityIndex(field));
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: number): StoredRecord | undefined {
    return this.byId.get(id);
  }

  put(record: StoredRecord): void {
    const previous = this.byId.get(record.id);
    this.byId.set(record.id, record);
    if (previous === undefined) {
      this.rows.insert(record);
      for (const index of this.indexes.values()) index.add(record);
      for (const view of this.sortedViews.values()) view.insert(record);
    } else {
      this.rows.replace(previous, record);
      for (const index of this.indexes.values()) index.replace(previous, record);
      for (const view of this.sortedViews.values()) view.replace(previous, record);
    }
  }

  delete(id: number): void {
    const previous = this.byId.get(id);
    if (previous === undefined) return;
    this.byId.delete(id);
    this.rows.remove(previous);
    for (const index of this.indexes.values()) index.remove(previous);
    for (const view of this.sortedViews.values()) view.remove(previous);
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

  page(query: PageQuery): PageResult {
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

  private orderedFor(sort: readonly SortKey[], match: PageQuery['index']): Ordered {
    const idDescending = sort[0]?.field === 'id' && sort[0].direction === 'desc';
    if (match !== undefined) {
      const index = this.indexes.get(match.field);
      const group = index !== undefined ? index.lookup(match.value) : this.findBy(match.field, match.value);
      if (isIdSort(sort)) return idDescending ? descending(group) : ascending(group);
      // A group is usually small next to its table; sorting it per request is cheap.
      return ascending(group.slice().sort(comparatorFor(sort)));
    }
    if (isIdSort(sort)) return idDescending ? descending(this.rows.items) : ascending(this.rows.items);
    // A descending sort is kept in reverse and read backwards: a new record (highest id,
    // often the newest date) then lands at the array's end, a push rather than a splice at 0.
    const reversed = sort[0]?.direction === 'desc';
    const items = this.sortedView(sort, reversed).items;
    return reversed ? descending(items) : ascending(items);
  }

  private sortedView(sort: readonly SortKey[], reversed: boolean): SortedList {
    const signature = sortSignature(sort);
    let view = this.sortedViews.get(signature);
    if (view !== undefined) {
      // Re-inserting marks it most recently used (Maps keep insertion order).
      this.sortedViews.delete(signature);
    } else {
      const forward = comparatorFor(sort);
      const compare: RecordComparator = reversed ? (a, b) => forward(b, a) : forward;
      view = new SortedList(compare, this.rows.items.slice());
      if (this.sortedViews.size >= MAX_SORTED_VIEWS) {
        const oldest = this.sortedViews.keys().next();
        if (oldest.done !== true) this.sortedViews.delete(oldest.value);
      }
    }
    this.sortedViews.set(signature, view);
    return view;
  }
}
