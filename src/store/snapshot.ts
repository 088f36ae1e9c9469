import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from './durable-fs.js';
import { StoreCorruptError } from './errors.js';
import { isCollectionName, isStoredRecord } from './journal-entry.js';
import { forEachLine } from './line-reader.js';
import type { SnapshotContent, StoreState } from './store-state.js';
import type { CollectionName, StoredRecord } from './types.js';

const SNAPSHOT_FILE = 'snapshot.json';
export const SNAPSHOT_TEMP_FILE = 'snapshot.json.tmp';

const FORMAT = 'pla-store/1';
const COLLECTIONS_OPENER = ',"collections":{';
// Records are written this many to a chunk: big enough for throughput, small enough
// that the event loop gets a turn between chunks (a million records ≈ 2,000 turns).
const RECORDS_PER_CHUNK = 500;

/*
 * The snapshot is one valid JSON document laid out one record per line:
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
 * so it can be written and read a chunk at a time, and still be read by any JSON tool.
 */

/**
 * Writes a snapshot atomically: to a temporary file, fsynced, renamed over
 * `snapshot.json`, and the folder fsynced, so a crash leaves the old snapshot or the
 * new one, whole. Streams the records in chunks rather than building one string.
 */
export async function writeSnapshot(dir: string, content: SnapshotContent): Promise<void> {
  const temp = join(dir, SNAPSHOT_TEMP_FILE);
  const handle = await open(temp, 'w');
  try {
    const header = { format: FORMAT, seq: content.seq, nextIds: content.nextIds, savedAt: new Date().toISOString() };
    await handle.appendFile(`${JSON.stringify(header).slice(0, -1)}${COLLECTIONS_OPENER}\n`);
    for (let c = 0; c < content.collections.length; c++) {
      const [name, records] = content.collections[c] as (typeof content.collections)[number];
      await handle.appendFile(`${JSON.stringify(name)}:[\n`);
      for (let start = 0; start < records.length; start += RECORDS_PER_CHUNK) {
        const end = Math.min(records.length, start + RECORDS_PER_CHUNK);
        let chunk = '';
        for (let i = start; i < end; i++) chunk += `${JSON.stringify(records[i])}${i < records.length - 1 ? ',' : ''}\n`;
        await handle.appendFile(chunk);
      }
      await handle.appendFile(c < content.collections.length - 1 ? '],\n' : ']\n');
    }
    await handle.appendFile('}}\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, join(dir, SNAPSHOT_FILE));
  await fsyncDir(dir);
}

/**
 * Loads `snapshot.json` into `state` (records, id counters, seq); leaves it empty when
 * there is none. Throws `StoreCorruptError` naming the line of anything unreadable:
 * snapshots are replaced atomically, so a bad one is damage, not a crash to recover from.
 */
export async function readSnapshot(dir: string, state: StoreState): Promise<void> {
  const path = join(dir, SNAPSHOT_FILE);
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
        state.raiseNextId(collection, record.id + 1);
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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!finished) throw new StoreCorruptError(`${path}: truncated (no closing line)`);
}

/** A record line's record, or what is wrong with it. */
function parseRecordLine(text: string): StoredRecord | string {
  let record: unknown;
  try {
    record = JSON.parse(text.endsWith(',') ? text.slice(0, -1) : text);
  } catch (error) {
    return (error as Error).message;
  }
  return isStoredRecord(record) ? record : 'a record needs a positive integer id';
}

function readHeader(text: string, state: StoreState): boolean {
  if (!text.endsWith(COLLECTIONS_OPENER)) return false;
  let header: unknown;
  try {
    header = JSON.parse(`${text.slice(0, -COLLECTIONS_OPENER.length)}}`);
  } catch {
    return false;
  }
  if (typeof header !== 'object' || header === null) return false;
  const { format, seq, nextIds } = header as { format?: unknown; seq?: unknown; nextIds?: unknown };
  if (format !== FORMAT || !Number.isSafeInteger(seq) || typeof nextIds !== 'object' || nextIds === null) return false;
  for (const [name, next] of Object.entries(nextIds)) {
    if (isCollectionName(name) && Number.isSafeInteger(next)) state.raiseNextId(name, next as number);
  }
  state.seq = seq as number;
  return true;
}
