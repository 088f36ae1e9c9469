import type { RecordComparator } from './record-order.js';
import type { StoredRecord } from './types.js';

/**
 * Records kept in a total order (comparators break ties by id), maintained on each
 * write by binary search, so reading a page of it is a slice rather than a sort.
 * Appending in order — the common case, as ids increase — is a push.
 */
export class SortedList {
  readonly items: StoredRecord[];

  /** `items`, when given, is taken over and sorted. */
  constructor(
    private readonly compare: RecordComparator,
    items?: StoredRecord[],
  ) {
    this.items = items?.sort(compare) ?? [];
  }

  insert(record: StoredRecord): void {
    const items = this.items;
    const last = items[items.length - 1];
    if (last === undefined || this.compare(last, record) < 0) {
      items.push(record);
      return;
    }
    items.splice(this.lowerBound(record), 0, record);
  }

  /** Removes the record that sorts exactly where `record` does (the same id). */
  remove(record: StoredRecord): void {
    const at = this.lowerBound(record);
    if (this.items[at]?.id === record.id) this.items.splice(at, 1);
  }

  /** Removes the records of these ids in one pass (one splice each would move the rest every time). */
  removeAll(doomed: ReadonlySet<StoredRecord['id']>): void {
    const items = this.items;
    let kept = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as StoredRecord;
      if (!doomed.has(item.id)) items[kept++] = item;
    }
    items.length = kept;
  }

  /** Swaps in a new version of a record, moving it only if its position changes. */
  replace(previous: StoredRecord, next: StoredRecord): void {
    const at = this.lowerBound(previous);
    if (this.items[at]?.id !== previous.id) {
      this.insert(next);
      return;
    }
    const before = this.items[at - 1];
    const after = this.items[at + 1];
    const stays = (before === undefined || this.compare(before, next) < 0) && (after === undefined || this.compare(next, after) < 0);
    if (stays) {
      this.items[at] = next;
    } else {
      this.items.splice(at, 1);
      this.insert(next);
    }
  }

  get length(): number {
    return this.items.length;
  }

  private lowerBound(record: StoredRecord): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compare(this.items[mid] as StoredRecord, record) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
