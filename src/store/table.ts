import { jsonText } from '../json/json-text.js';
import { EqualityIndex, indexEquals } from './equality-index.js';
import { comparatorFor, fieldValue, sortSignature } from './record-order.js';
import type { RecordComparator } from './record-order.js';
import type { PackedPut } from './journal-frame.js';
import { parseRecordText } from './packed-records.js';
import type { Entry, PackedRecords } from './packed-records.js';
import { SortedList } from './sorted-list.js';
import type { PageResult, SortKey, StoredRecord } from './types.js';

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
  /**
   * A test the JSON text of every record `where` keeps passes (not the other way
   * round): a record left in the snapshot file whose text fails it is skipped unparsed.
   */
  text?: (text: string) => boolean;
}

// Sorted orders kept per table (of the whole table or of one index group); the least
// recently used one is dropped beyond this, so a client cycling through odd sorts
// costs memory once, not forever.
const MAX_SORTED_VIEWS = 8;

// A table loaded with more records than this gets its rows in one array of that size.
const PREALLOCATE_FROM = 10_000;

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
  /** What the order keeps of a record, when not the record itself (see `projector`). */
  project?: (record: StoredRecord) => StoredRecord;
}

/** What `view` keeps of a record. */
function keptBy(view: SortedView, record: StoredRecord): StoredRecord {
  return view.project === undefined ? record : view.project(record);
}

/**
 * A record cut down to its id and the top-level fields the sort (and group) read: a
 * sorted order of a table whose records stay in the snapshot file keeps these instead
 * of every record decoded (a million records sorted by `updatedAt` cost their dates,
 * not the records). `Object.fromEntries` defines each field as the record's own, so a
 * `__proto__` field stays a field.
 */
function projector(fields: readonly string[]): (record: StoredRecord) => StoredRecord {
  const names = [...new Set(fields.flatMap((field) => [field, field.split('.')[0] as string]))].filter((name) => name !== 'id');
  return (record) => {
    const kept: Array<[string, unknown]> = [['id', record.id]];
    for (const name of names) if (Object.hasOwn(record, name)) kept.push([name, record[name]]);
    return Object.fromEntries(kept) as StoredRecord;
  };
}

function inView(view: SortedView, record: StoredRecord): boolean {
  return view.group === undefined || indexEquals(fieldValue(record, view.group.field), view.group.value);
}

/** Read access to records in some order without copying them. */
interface Ordered {
  readonly length: number;
  /** The record at a position (kept decoded a while: a page read again decodes nothing). */
  at(position: number): StoredRecord;
  /** The same, not kept: for scans through the whole order. With `text`, undefined for a record left in the file whose text fails it. */
  peek(position: number, text?: (text: string) => boolean): StoredRecord | undefined;
  /** The records from `start` to before `end`. */
  slice(start: number, end: number): StoredRecord[];
}

function orderedBy(length: number, at: (position: number) => StoredRecord): Ordered {
  const slice = (start: number, end: number) => {
    const items: StoredRecord[] = [];
    for (let position = start; position < end; position++) items.push(at(position));
    return items;
  };
  return { length, at, peek: at, slice };
}

function ascending(items: readonly StoredRecord[]): Ordered {
  return orderedBy(items.length, (position) => items[position] as StoredRecord);
}

function descending(items: readonly StoredRecord[]): Ordered {
  const last = items.length - 1;
  return orderedBy(items.length, (position) => items[last - position] as StoredRecord);
}

function isIdSort(sort: readonly SortKey[]): boolean {
  return sort.length === 0 || sort[0]?.field === 'id';
}

/**
 * One collection in memory: records in id (= creation) order, grouped by each indexed
 * field, and in each recently requested sort order. Every order is maintained on
 * write, so a page read costs the page, not the table; only `where` filters scan.
 *
 * The id order is the table's rows: entries of the snapshot's pack (`packed-records.ts`,
 * decoded when read) or records in memory. A record is found by id with a binary
 * search of the rows (ids increase along them), which costs no memory per record.
 * Equality indexes need every record's field: a table with equality indexes decodes
 * its records as they load, and its sorted orders share them. Sorted orders of other
 * tables keep, per record, its id and the fields they sort by (`projector`).
 */
export class Table {
  private rows: Entry[] = [];
  private readonly indexes = new Map<string, EqualityIndex>();
  private readonly sortedViews = new Map<string, SortedView>();

  constructor(
    private readonly packed: PackedRecords,
    indexedFields: readonly string[] = [],
  ) {
    for (const field of indexedFields) this.indexes.set(field, new EqualityIndex(field));
  }

  get size(): number {
    return this.rows.length;
  }

  get(id: StoredRecord['id']): StoredRecord | undefined {
    const at = this.lowerBound(id);
    return at < this.rows.length && this.idAt(at) === id ? this.packed.recordOf(this.rows[at] as Entry) : undefined;
  }

  /**
   * Adds an entry whose id is above every id in the table (loading a snapshot, whose
   * records come in id order; putting back a captured table).
   */
  append(entry: Entry): void {
    if (this.indexes.size === 0 && this.sortedViews.size === 0) {
      this.rows.push(entry);
      return;
    }
    const record = this.packed.peek(entry);
    this.rows.push(this.indexes.size === 0 ? entry : record);
    for (const index of this.indexes.values()) index.add(record);
    for (const view of this.sortedViews.values()) if (inView(view, record)) view.list.insert(keptBy(view, record));
  }

  /**
   * Adds the slots `first` to before `end` of the pack, whose ids increase and are above
   * every id in the table (loading a snapshot).
   */
  appendSlots(first: number, end: number): void {
    if (this.indexes.size > 0 || this.sortedViews.size > 0) {
      for (let slot = first; slot < end; slot++) this.append(slot);
      return;
    }
    if (this.rows.length === 0 && end - first > PREALLOCATE_FROM) {
      // One array, with room for the records the journal and the next writes add, rather
      // than a million pushes: a growing array is copied again and again into fresh
      // memory, which cost more than the whole scan of the snapshot.
      const rows = new Array<Entry>(end - first + ((end - first) >> 3));
      rows.length = end - first;
      for (let slot = first; slot < end; slot++) rows[slot - first] = slot;
      this.rows = rows;
      return;
    }
    const rows = this.rows;
    for (let slot = first; slot < end; slot++) rows.push(slot);
  }

  /**
   * Puts a record the journal holds (replay, see `PackedRecords.addJournalRecord`):
   * left in the file, or parsed now in a table with equality indexes, whose rows are records.
   */
  putFromJournal({ id, bytes, from, length, position }: PackedPut): void {
    if (this.indexes.size > 0) this.put(parseRecordText(bytes.toString('utf8', from, from + length)) as StoredRecord);
    else this.put(this.packed.addJournalRecord(id, position, length));
  }

  put(entry: Entry): void {
    const rows = this.rows;
    const id = this.packed.idOf(entry);
    const at = this.lowerBound(id);
    const plain = this.indexes.size === 0 && this.sortedViews.size === 0;
    // A table with equality indexes keeps its rows decoded (see `append`).
    const record = plain ? undefined : this.packed.peek(entry);
    const row = this.indexes.size === 0 ? entry : (record as StoredRecord);
    if (at === rows.length || this.idAt(at) !== id) {
      if (at === rows.length) rows.push(row);
      else rows.splice(at, 0, row);
      if (record === undefined) return;
      for (const index of this.indexes.values()) index.add(record);
      for (const view of this.sortedViews.values()) if (inView(view, record)) view.list.insert(keptBy(view, record));
      return;
    }
    const replaced = rows[at] as Entry;
    rows[at] = row;
    if (record === undefined) return;
    const previous = this.packed.peek(replaced);
    for (const index of this.indexes.values()) index.replace(previous, record);
    for (const view of this.sortedViews.values()) {
      const was = inView(view, previous);
      const is = inView(view, record);
      if (was && is) view.list.replace(keptBy(view, previous), keptBy(view, record));
      else if (was) view.list.remove(keptBy(view, previous));
      else if (is) view.list.insert(keptBy(view, record));
    }
  }

  delete(id: StoredRecord['id']): void {
    const at = this.lowerBound(id);
    if (at === this.rows.length || this.idAt(at) !== id) return;
    const [removed] = this.rows.splice(at, 1) as [Entry];
    if (this.indexes.size === 0 && this.sortedViews.size === 0) return;
    const previous = this.packed.peek(removed);
    for (const index of this.indexes.values()) index.remove(previous);
    for (const view of this.sortedViews.values()) if (inView(view, previous)) view.list.remove(keptBy(view, previous));
  }

  /** Deletes many records; unknown ids are skipped. */
  deleteMany(ids: Iterable<StoredRecord['id']>): void {
    const doomed = new Set<StoredRecord['id']>();
    for (const id of ids) {
      const at = this.lowerBound(id);
      if (at < this.rows.length && this.idAt(at) === id) doomed.add(id);
    }
    if (doomed.size < BATCH_DELETES) {
      for (const id of doomed) this.delete(id);
      return;
    }
    const rows = this.rows;
    const removed: StoredRecord[] = [];
    const keepsOrders = this.indexes.size > 0 || this.sortedViews.size > 0;
    let kept = 0;
    for (let i = 0; i < rows.length; i++) {
      const entry = rows[i] as Entry;
      if (!doomed.has(this.packed.idOf(entry))) rows[kept++] = entry;
      else if (keepsOrders) removed.push(this.packed.peek(entry));
    }
    rows.length = kept;
    for (const index of this.indexes.values()) index.removeAll(removed, doomed);
    for (const view of this.sortedViews.values()) view.list.removeAll(doomed);
  }

  /** Called before a commit puts `count` records: a large one drops the sorted orders (a cache) instead of inserting into each. */
  expectPuts(count: number): void {
    if (count > BATCH_PUTS) this.sortedViews.clear();
  }

  clear(): void {
    this.rows.length = 0;
    for (const index of this.indexes.values()) index.clear();
    this.sortedViews.clear();
  }

  /** The table's own id-ordered rows; callers copy them before the next write if they keep them. */
  entries(): readonly Entry[] {
    return this.rows;
  }

  /** Every record in id order, decoded (mind the size: for transactions that staged changes, and tests), or what `project` keeps of each. */
  records(project?: (record: StoredRecord) => StoredRecord): StoredRecord[] {
    const { packed } = this;
    return this.rows.map(project === undefined ? (entry) => packed.peek(entry) : (entry) => project(packed.peek(entry)));
  }

  findBy(field: string, value: unknown): StoredRecord[] {
    const index = this.indexes.get(field);
    if (index !== undefined) return index.lookup(value).slice();
    const found: StoredRecord[] = [];
    for (const entry of this.rows) {
      const record = this.packed.peek(entry);
      if (indexEquals(fieldValue(record, field), value)) found.push(record);
    }
    return found;
  }

  page(query: TableQuery): PageResult {
    const sort = query.sort ?? [];
    const ordered = this.orderedFor(sort, query.index);
    const { offset, limit, where, text } = query;
    if (where === undefined) return { items: ordered.slice(offset, Math.min(ordered.length, offset + limit)), total: ordered.length };
    const items: StoredRecord[] = [];
    let total = 0;
    for (let position = 0; position < ordered.length; position++) {
      const record = ordered.peek(position, text);
      if (record === undefined || !where(record)) continue;
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
    if (match === undefined && isIdSort(sort)) return this.rowsOrdered(idDescending);
    // A descending sort is kept in reverse and read backwards: a new record (highest id,
    // often the newest date) then lands at the array's end, a push rather than a splice at 0.
    const reversed = sort[0]?.direction === 'desc';
    const view = this.sortedView(sort, reversed, match);
    const items = view.list.items;
    if (view.project === undefined) return reversed ? descending(items) : ascending(items);
    return this.byIdsOf(items, reversed);
  }

  /** An order of kept projections read as the records they stand for. */
  private byIdsOf(items: readonly StoredRecord[], reversed: boolean): Ordered {
    const last = items.length - 1;
    const entry = (position: number) => this.rows[this.lowerBound((items[reversed ? last - position : position] as StoredRecord).id)] as Entry;
    return {
      length: items.length,
      at: (position) => this.packed.recordOf(entry(position)),
      peek: (position, text) => (text === undefined ? this.packed.peek(entry(position)) : this.packed.peekIf(entry(position), text)),
      slice: (start, end) => {
        const entries: Entry[] = [];
        for (let position = start; position < end; position++) entries.push(entry(position));
        return this.packed.recordsOf(entries);
      },
    };
  }

  /**
   * The kept order for a sort, of the whole table or of one index group (a user with
   * 100,000 notifications must not cost a sort of them per page), built on first use.
   */
  private sortedView(sort: readonly SortKey[], reversed: boolean, group: TableQuery['index']): SortedView {
    let signature = sortSignature(sort);
    if (group !== undefined) signature += `\u0000${group.field}\u0000${typeof group.value}:${String(jsonText(group.value))}`;
    let view = this.sortedViews.get(signature);
    if (view !== undefined) {
      // Re-inserting marks it most recently used (Maps keep insertion order).
      this.sortedViews.delete(signature);
    } else {
      const forward = comparatorFor(sort);
      const compare: RecordComparator = reversed ? (a, b) => forward(b, a) : forward;
      // A table with equality indexes holds its records decoded: its orders share them.
      const project = this.indexes.size === 0 ? projector([...sort.map((key) => key.field), ...(group ? [group.field] : [])]) : undefined;
      const records = group === undefined ? this.records(project) : this.findBy(group.field, group.value).map((record) => project?.(record) ?? record);
      view = {
        list: new SortedList(compare, records),
        ...(group !== undefined ? { group: { field: group.field, value: group.value } } : {}),
        ...(project !== undefined ? { project } : {}),
      };
      if (this.sortedViews.size >= MAX_SORTED_VIEWS) {
        const oldest = this.sortedViews.keys().next();
        if (oldest.done !== true) this.sortedViews.delete(oldest.value);
      }
    }
    this.sortedViews.set(signature, view);
    return view;
  }

  /** The rows in id order, ascending or descending, decoded as they are read. */
  private rowsOrdered(reversed: boolean): Ordered {
    const { rows, packed } = this;
    const last = rows.length - 1;
    const slot = reversed ? (position: number) => rows[last - position] as Entry : (position: number) => rows[position] as Entry;
    return {
      length: rows.length,
      at: (position) => packed.recordOf(slot(position)),
      peek: (position, text) => (text === undefined ? packed.peek(slot(position)) : packed.peekIf(slot(position), text)),
      slice: (start, end) => {
        const entries: Entry[] = [];
        for (let position = start; position < end; position++) entries.push(slot(position));
        return packed.recordsOf(entries);
      },
    };
  }

  private idAt(position: number): StoredRecord['id'] {
    return this.packed.idOf(this.rows[position] as Entry);
  }

  /** Where `id` is in the rows, or where it would go. */
  private lowerBound(id: StoredRecord['id']): number {
    const rows = this.rows;
    const last = rows.length - 1;
    // Writes mostly go to the newest ids: the end first.
    if (last < 0 || this.idAt(last) < id) return rows.length;
    let low = 0;
    let high = last;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.idAt(mid) < id) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
