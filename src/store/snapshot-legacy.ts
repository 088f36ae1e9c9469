/**
 * The snapshot as pla wrote it before `pla-store/2` (`snapshot.ts`): `snapshot.json`,
 * one valid JSON document laid out one record per line,
 *
 *   {"format":"pla-store/1","seq":42,"nextIds":{"tasks":7},"collections":{
 *   "tasks":[
 *   {"id":1,…},
 *   {"id":2,…}
 *   ],
 *   "topics":[
 *   ]
 *   }}
 *
 * Read only, to upgrade a data folder on its first start with this pla: every record
 * is parsed, as it always was; the next start reads the new snapshot instead.
 */
import { join } from 'node:path';
import { idAfter, isRecordId } from '../contract/ids.js';
import { parseJson } from '../json/json-parse.js';
import { StoreCorruptError } from './errors.js';
import { isCollectionName, isStoredRecord } from './journal-entry.js';
import { forEachLine } from './line-reader.js';
import type { StoreState } from './store-state.js';
import type { CollectionName, StoredRecord } from './types.js';

export const LEGACY_SNAPSHOT_FILE = 'snapshot.json';
/** What an interrupted compaction of that pla left behind. */
export const LEGACY_SNAPSHOT_TEMP_FILE = 'snapshot.json.tmp';

const FORMAT = 'pla-store/1';
const COLLECTIONS_OPENER = ',"collections":{';

/**
 * Loads `snapshot.json` into `state` (records, id counters, seq); false, with `state`
 * left empty, when there is none. Throws `StoreCorruptError` naming the line of anything unreadable:
 * snapshots are replaced atomically, so a bad one is damage, not a crash to recover from.
 */
export async function readLegacySnapshot(dir: string, state: StoreState): Promise<boolean> {
  const path = join(dir, LEGACY_SNAPSHOT_FILE);
  let collection: CollectionName | undefined;
  let finished = false;
  const fail = (line: number, why: string): never => {
    throw new StoreCorruptError(`${path} line ${line}: ${why}`, {
      hint: 'restore the data folder from a backup, or move snapshot.json away to start from the journal alone',
    });
  };
  try {
    await forEachLine(path, ({ text, number }) => {
      if (finished) {
        if (text.trim() !== '') fail(number, 'text after the end of the snapshot');
        return;
      }
      if (number === 1) {
        if (!readHeader(text, state)) fail(number, `not a ${FORMAT} snapshot header`);
      } else if (collection !== undefined && text.startsWith('{')) {
        const record = parseRecordLine(text);
        if (typeof record === 'string') return fail(number, record);
        state.table(collection).put(record);
        state.raiseNextId(collection, idAfter(record.id));
      } else if (collection !== undefined && (text === ']' || text === '],')) {
        collection = undefined;
      } else if (collection === undefined && text.endsWith(':[')) {
        const name: unknown = JSON.parse(text.slice(0, -2));
        if (!isCollectionName(name)) fail(number, `unknown collection ${String(name)}`);
        collection = name as CollectionName;
      } else if (collection === undefined && text === '}}') {
        finished = true;
      } else {
        fail(number, 'unexpected line');
      }
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if (!finished) throw new StoreCorruptError(`${path}: truncated (no closing line)`);
  return true;
}

/** A record line's record, or what is wrong with it. */
function parseRecordLine(text: string): StoredRecord | string {
  let record: unknown;
  try {
    record = parseJson(text.endsWith(',') ? text.slice(0, -1) : text);
  } catch (error) {
    return (error as Error).message;
  }
  return isStoredRecord(record) ? record : 'a record needs a positive integer id';
}

function readHeader(text: string, state: StoreState): boolean {
  if (!text.endsWith(COLLECTIONS_OPENER)) return false;
  let header: unknown;
  try {
    header = parseJson(`${text.slice(0, -COLLECTIONS_OPENER.length)}}`);
  } catch {
    return false;
  }
  if (typeof header !== 'object' || header === null) return false;
  const { format, seq, nextIds } = header as { format?: unknown; seq?: unknown; nextIds?: unknown };
  if (format !== FORMAT || !Number.isSafeInteger(seq) || typeof nextIds !== 'object' || nextIds === null) return false;
  for (const [name, next] of Object.entries(nextIds)) {
    if (isCollectionName(name) && isRecordId(next)) state.raiseNextId(name, next);
  }
  state.seq = seq as number;
  return true;
}
