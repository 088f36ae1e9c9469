import { isRecordId } from '../contract/ids.js';
import { parseJson } from '../json/json-parse.js';
import { COLLECTIONS } from './types.js';
import type { Change, CollectionName, RecordId, StoredRecord } from './types.js';

const COLLECTION_NAMES: ReadonlySet<string> = new Set(COLLECTIONS);

/**
 * One line of `journal.ndjson`: everything one `commit` (or `clear`) changed.
 * `seq` increases by one per entry across the store's life; the snapshot records the
 * last `seq` it contains, so replay skips what the snapshot already holds. `ids` carries
 * id counters that moved without a record showing it (an allocated id not yet used).
 */
export interface JournalEntry {
  seq: number;
  ids?: Partial<Record<CollectionName, RecordId>>;
  changes?: Change[];
  /** The admin reset: every collection emptied (before `changes` apply), id counters kept. */
  clear?: true;
}

/** Thrown (as a plain message) when data does not have the shape the store needs. */
class ShapeError extends Error {}

/** Whether `name` is one of the store's collections. */
export function isCollectionName(name: unknown): name is CollectionName {
  return typeof name === 'string' && COLLECTION_NAMES.has(name);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value is a record the store can keep: a JSON object with a positive integer id. */
export function isStoredRecord(value: unknown): value is StoredRecord {
  return isPlainObject(value) && isRecordId(value.id);
}

function checkChange(change: unknown, where: string): asserts change is Change {
  if (!isPlainObject(change)) throw new ShapeError(`${where}: not an object`);
  if (!isCollectionName(change.collection)) throw new ShapeError(`${where}: unknown collection ${String(change.collection)}`);
  if (change.op === 'put') {
    if (!isStoredRecord(change.record)) throw new ShapeError(`${where}: record needs a positive integer id`);
  } else if (change.op === 'delete') {
    if (!isRecordId(change.id)) throw new ShapeError(`${where}: delete needs a positive integer id`);
  } else {
    throw new ShapeError(`${where}: unknown op ${String(change.op)}`);
  }
}

/**
 * Checks a commit's changes before anything is applied, so a bad change refuses the
 * whole commit. Throws a `TypeError` naming the first bad change.
 */
export function checkChanges(changes: readonly unknown[]): asserts changes is readonly Change[] {
  try {
    changes.forEach((change, i) => checkChange(change, `change ${i}`));
  } catch (error) {
    if (error instanceof ShapeError) throw new TypeError(`store commit refused: ${error.message}`, { cause: error });
    throw error;
  }
}

/** Parses and checks one journal line; throws an `Error` saying what is wrong with it. */
export function parseJournalEntry(line: string): JournalEntry {
  const value: unknown = parseJson(line);
  if (!isPlainObject(value) || typeof value.seq !== 'number' || !Number.isSafeInteger(value.seq) || value.seq <= 0)
    throw new ShapeError('not a journal entry (no seq)');
  if (value.ids !== undefined) {
    if (!isPlainObject(value.ids)) throw new ShapeError('ids is not an object');
    for (const [name, next] of Object.entries(value.ids)) {
      if (!isCollectionName(name) || !isRecordId(next)) throw new ShapeError(`bad id counter ${name}`);
    }
  }
  if (value.clear !== undefined && value.clear !== true) throw new ShapeError('bad clear flag');
  if (value.changes !== undefined) {
    if (!Array.isArray(value.changes)) throw new ShapeError('changes is not an array');
    value.changes.forEach((change, i) => checkChange(change, `change ${i}`));
  }
  return value as unknown as JournalEntry;
}
