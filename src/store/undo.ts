/**
 * Taking back entries that were applied in memory but that the journal refused
 * (a full disk): before an entry is applied, the records it will replace are noted,
 * and putting them back undoes it. A compaction snapshot leaves such in-flight
 * entries out the same way, so it only ever holds what is durable.
 */
import type { JournalEntry } from './journal-entry.js';
import type { Entry, PackedRecords } from './packed-records.js';
import type { SnapshotContent, StoreState } from './store-state.js';
import type { CollectionName, RecordId, StoredRecord } from './types.js';

/** How to take one entry back: each record it touched as it was before (undefined = absent), or every table for a clear. */
export interface Undo {
  previous: Array<{ collection: CollectionName; id: RecordId; record: StoredRecord | undefined }>;
  /** For a clearing entry: every table's records before it. */
  cleared?: SnapshotContent['collections'];
  /** Collections whose id counter the entry may have moved. */
  collections: CollectionName[];
}

/** An entry applied in memory and not yet durable. */
export interface Unconfirmed {
  seq: number;
  undo: Undo;
  /** Collections whose counters this entry was to record. */
  ids: CollectionName[];
}

/** What to note before applying `entry` to `state`. */
export function undoOf(state: StoreState, entry: JournalEntry): Undo {
  const previous: Undo['previous'] = [];
  const seen = new Set<string>();
  const collections = new Set<CollectionName>();
  for (const change of entry.changes ?? []) {
    const id = change.op === 'put' ? change.record.id : change.id;
    collections.add(change.collection);
    const key = `${change.collection}:${id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    previous.push({ collection: change.collection, id, record: state.table(change.collection).get(id) });
  }
  const undo: Undo = { previous, collections: [...collections] };
  if (entry.clear === true) undo.cleared = state.capture().collections;
  return undo;
}

/** Puts back what `undo` noted. */
export function applyUndo(state: StoreState, undo: Undo): void {
  if (undo.cleared) {
    for (const [name, entries] of undo.cleared) {
      const table = state.table(name);
      table.clear();
      for (const entry of entries) table.append(entry);
    }
    return;
  }
  for (const { collection, id, record } of undo.previous.slice().reverse()) {
    if (record) state.table(collection).put(record);
    else state.table(collection).delete(id);
  }
}

/** Index of `id` in an id-ordered array, or where it would go (as a negative: -(position) - 1). */
function search(entries: readonly Entry[], id: StoredRecord['id'], packed: PackedRecords): number {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = packed.idOf(entries[middle] as Entry);
    if (at === id) return middle;
    if (at < id) low = middle + 1;
    else high = middle - 1;
  }
  return -low - 1;
}

/** A captured state with the unconfirmed entries taken back (newest first): the durable state. */
export function withoutUnconfirmed(content: SnapshotContent, unconfirmed: readonly Unconfirmed[]): SnapshotContent {
  if (unconfirmed.length === 0) return content;
  const tables = new Map<CollectionName, Entry[]>(content.collections.map(([name, entries]) => [name, [...entries]]));
  for (const { undo } of unconfirmed.slice().reverse()) {
    if (undo.cleared) {
      for (const [name, records] of undo.cleared) tables.set(name, [...records]);
      continue;
    }
    for (const { collection, id, record } of undo.previous.slice().reverse()) {
      const records = tables.get(collection) as Entry[];
      const at = search(records, id, content.packed);
      if (record && at >= 0) records[at] = record;
      else if (record) records.splice(-at - 1, 0, record);
      else if (at >= 0) records.splice(at, 1);
    }
  }
  return { ...content, seq: (unconfirmed[0] as Unconfirmed).seq - 1, collections: [...tables] };
}
