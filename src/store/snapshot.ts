/**
 * The snapshot, `pla-store/2`: every record as of entry `seq`, one per line, after its
 * id, in id order per collection, and a checksum at the end:
 *
 *   {"format":"pla-store/2","seq":42,"nextIds":{"tasks":7},"counts":{"tasks":2,…},"savedAt":"…"}
 *   @tasks
 *   1<TAB>{"id":1,…}
 *   6<TAB>{"id":6,…}
 *   @topics
 *   #end 1c291ca3
 *
 * Start-up reads it through once and parses no record: it finds each line's id and
 * where its JSON starts and ends, and the tables keep those (`packed-records.ts`); a
 * record is read from the file and parsed when it is asked for. The checksum (CRC-32 of every byte before the
 * last line) stands in for parsing every record to find damage: snapshots are
 * replaced atomically, so a snapshot that does not match is damage, refused at start.
 * The id is written as its digits, exactly, whatever its size. Any tool that splits
 * lines at the first tab reads the records as JSON.
 */
import { fstatSync, openSync, readSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { idAfter, isRecordId } from '../contract/ids.js';
import { jsonText } from '../json/json-text.js';
import { parseJson } from '../json/json-parse.js';
import { fsyncDir } from './durable-fs.js';
import { StoreCorruptError } from './errors.js';
import { isCollectionName, isStoredRecord } from './journal-entry.js';
import { parseRecordText } from './packed-records.js';
import type { SnapshotContent, StoreState } from './store-state.js';
import type { CollectionName } from './types.js';

export const SNAPSHOT_FILE = 'snapshot.pla';
export const SNAPSHOT_TEMP_FILE = 'snapshot.pla.tmp';

const FORMAT = 'pla-store/2';
// Records are written this many to a chunk: big enough for throughput, small enough
// that the event loop gets a turn between chunks (a million records ≈ 2,000 turns).
const RECORDS_PER_CHUNK = 500;
const NEWLINE = 0x0a;
const TAB = 0x09;
const AT = 0x40;

/** Appends text to the file and to the running checksum. */
class ChecksummedWriter {
  crc = 0;
  constructor(private readonly handle: FileHandle) {}
  async write(text: string): Promise<void> {
    this.crc = crc32(text, this.crc);
    await this.handle.appendFile(text);
  }
}

function crcText(crc: number): string {
  return crc.toString(16).padStart(8, '0');
}

/**
 * Writes a snapshot atomically: to a temporary file, fsynced, renamed over
 * `snapshot.pla`, and the folder fsynced, so a crash leaves the old snapshot or the
 * new one, whole. Streams the records in chunks rather than building one string;
 * packed records are copied as the text they were read as.
 */
export async function writeSnapshot(dir: string, content: SnapshotContent): Promise<void> {
  const temp = join(dir, SNAPSHOT_TEMP_FILE);
  const handle = await open(temp, 'w');
  const { packed } = content;
  try {
    const out = new ChecksummedWriter(handle);
    const counts = Object.fromEntries(content.collections.map(([name, entries]) => [name, entries.length]));
    await out.write(`${jsonText({ format: FORMAT, seq: content.seq, nextIds: content.nextIds, counts, savedAt: new Date().toISOString() })}\n`);
    for (const [name, entries] of content.collections) {
      await out.write(`@${name}\n`);
      for (let start = 0; start < entries.length; start += RECORDS_PER_CHUNK) {
        const end = Math.min(entries.length, start + RECORDS_PER_CHUNK);
        let chunk = '';
        for (let i = start; i < end; i++) {
          const entry = entries[i] as (typeof entries)[number];
          chunk += `${String(packed.idOf(entry))}\t${packed.textOf(entry)}\n`;
        }
        await out.write(chunk);
      }
    }
    await handle.appendFile(`#end ${crcText(out.crc)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, join(dir, SNAPSHOT_FILE));
  await fsyncDir(dir);
}

interface Header {
  seq: number;
  nextIds: Record<string, unknown>;
  counts: Record<string, unknown>;
}

function readHeader(text: string): Header | undefined {
  let header: unknown;
  try {
    header = parseJson(text);
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null) return undefined;
  const { format, seq, nextIds, counts } = header as Record<string, unknown>;
  if (format !== FORMAT || !Number.isSafeInteger(seq)) return undefined;
  if (typeof nextIds !== 'object' || nextIds === null || typeof counts !== 'object' || counts === null) return undefined;
  return { seq: seq as number, nextIds: nextIds as Record<string, unknown>, counts: counts as Record<string, unknown> };
}

/**
 * The id at the start of a record line: its digits up to the tab, and where the tab is
 * (`tab` -1 when the line does not start with digits and a tab). Exact up to 2^53;
 * past it, see `loadSnapshot`.
 */
function leadingId(bytes: Buffer, from: number, to: number): { id: number; tab: number } {
  let id = 0;
  for (let i = from; i < to; i++) {
    const byte = bytes[i] as number;
    if (byte === TAB) return { id, tab: i > from ? i : -1 };
    if (byte < 0x30 || byte > 0x39) break;
    id = id * 10 + (byte - 0x30);
  }
  return { id, tab: -1 };
}

/**
 * Calls `onLine(bytes, from, to, offset)` for each line of the file's first `end` bytes,
 * reading 8 MB at a time; returns their CRC-32. The reads are synchronous: this runs
 * while the store opens, before anything else waits on the event loop, and a trip
 * through the thread pool per chunk cost more wall time than the read on a busy machine.
 */
function scanLines(fd: number, end: number, onLine: (bytes: Buffer, from: number, to: number, offset: number) => void): number {
  let buffer = Buffer.allocUnsafe(Math.min(end, 8 << 20) || 1);
  let filled = 0;
  let bufferOffset = 0;
  let crc = 0;
  for (let position = 0; position < end;) {
    if (filled === buffer.length) {
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, filled);
      buffer = larger;
    }
    const bytesRead = readSync(fd, buffer, filled, Math.min(buffer.length - filled, end - position), position);
    if (bytesRead === 0) throw new Error('the file is shorter than its size');
    crc = crc32(buffer.subarray(filled, filled + bytesRead), crc);
    filled += bytesRead;
    position += bytesRead;
    const view = buffer.subarray(0, filled);
    let from = 0;
    for (let newline = view.indexOf(NEWLINE); newline !== -1; newline = view.indexOf(NEWLINE, from)) {
      onLine(view, from, newline, bufferOffset + from);
      from = newline + 1;
    }
    buffer.copy(buffer, 0, from, filled);
    filled -= from;
    bufferOffset += from;
  }
  return crc;
}

/**
 * Loads `snapshot.pla` into `state` (records, id counters, seq); false, with `state`
 * left empty, when there is none. The file stays open for the records left in it
 * (`state.packed`). Throws `StoreCorruptError` for a snapshot whose checksum does not
 * match or whose lines are not what `writeSnapshot` writes.
 */
export async function readSnapshot(dir: string, state: StoreState): Promise<boolean> {
  const path = join(dir, SNAPSHOT_FILE);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  state.packed.adopt(fd);
  try {
    loadSnapshot(fd, path, state);
  } catch (error) {
    state.packed.close();
    throw error;
  }
  return true;
}

function loadSnapshot(fd: number, path: string, state: StoreState): void {
  const fail = (why: string): never => {
    throw new StoreCorruptError(`${path}: ${why}`, {
      hint: 'restore the data folder from a backup, or move snapshot.pla away to start from the journal alone',
    });
  };
  const { size } = fstatSync(fd);
  const END_LINE = '#end 00000000\n'.length;
  const tail = Buffer.alloc(END_LINE + 1);
  const tailRead = size >= tail.length ? readSync(fd, tail, 0, tail.length, size - tail.length) : 0;
  const end = /^\n#end ([0-9a-f]{8})\n$/.exec(tail.toString('latin1', 0, tailRead));
  if (end === null) return fail('truncated (no end line)');
  const body = size - END_LINE;

  let header: Header | undefined;
  let starts = new Float64Array(0);
  let lengths = new Uint32Array(0);
  let ids = new Float64Array(0);
  let slot = 0;
  let line = 0;
  let collection: CollectionName | undefined;
  let previousId: number | bigint = 0;
  const finish = () => {
    if (collection === undefined) return;
    const table = state.table(collection);
    if (table.size !== header?.counts[collection]) fail(`${collection}: ${table.size} records where the header says ${String(header?.counts[collection])}`);
    if (previousId !== 0) state.raiseNextId(collection, idAfter(previousId));
  };
  const crc = scanLines(fd, body, (bytes, from, to, offset) => {
    line++;
    if (header === undefined) {
      header = readHeader(bytes.toString('utf8', from, to)) ?? fail(`line 1: not a ${FORMAT} snapshot header`);
      let total = 0;
      for (const count of Object.values(header.counts)) total += Number.isSafeInteger(count) ? (count as number) : fail('bad record counts in the header');
      [starts, lengths, ids] = [new Float64Array(total), new Uint32Array(total), new Float64Array(total)];
      state.packed.adopt(fd, starts, lengths, ids);
      return;
    }
    if (bytes[from] === AT) {
      finish();
      const name = bytes.toString('utf8', from + 1, to);
      if (!isCollectionName(name)) fail(`line ${line}: unknown collection ${name}`);
      collection = name as CollectionName;
      previousId = 0;
      return;
    }
    const { id, tab } = leadingId(bytes, from, to);
    if (collection === undefined || tab === -1) return fail(`line ${line}: unexpected line`);
    // Past 2^53 the digits are exact in the file but not in a double: compared exactly.
    const exact = Number.isSafeInteger(id) ? id : BigInt(bytes.toString('latin1', from, tab));
    if (exact <= previousId) fail(`line ${line}: ids must increase (${String(exact)} after ${String(previousId)})`);
    if (slot >= ids.length) fail(`line ${line}: more records than the header counts`);
    starts[slot] = offset + (tab + 1 - from);
    lengths[slot] = to - tab - 1;
    ids[slot] = id;
    if (typeof exact === 'number') {
      state.table(collection).append(slot);
    } else {
      // `ids` cannot hold it exactly: the record is parsed now and kept in memory as it parses.
      const record = parseRecordText(bytes.toString('utf8', tab + 1, to));
      if (!isStoredRecord(record)) return fail(`line ${line}: a record needs a positive integer id`);
      state.table(collection).append(record);
    }
    previousId = exact;
    slot++;
  });
  if (crcText(crc) !== end[1]) fail('damaged: its checksum does not match its content');
  if (header === undefined) return fail('no header');
  finish();
  for (const [name, next] of Object.entries(header.nextIds)) {
    if (isCollectionName(name) && isRecordId(next)) state.raiseNextId(name, next);
  }
  state.seq = header.seq;
}
