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
import { open, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { idAfter, isRecordId } from '../contract/ids.js';
import { jsonText } from '../json/json-text.js';
import { parseJson } from '../json/json-parse.js';
import { fsyncDir } from './durable-fs.js';
import { StoreCorruptError } from './errors.js';
import { isCollectionName, isStoredRecord } from './journal-entry.js';
import { forEachLineChunk } from './line-reader.js';
import { snapshotChecksum } from './snapshot-check.js';
import { readSnapshotIndex, SNAPSHOT_INDEX_FILE, SNAPSHOT_INDEX_TEMP_FILE, SnapshotIndexBuilder, writeSnapshotIndex } from './snapshot-index.js';
import type { SnapshotIdentity, SnapshotSlots } from './snapshot-index.js';
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
 * packed records are copied as the text they were read as. Its index
 * (`snapshot-index.ts`) is written beside it, and the old one removed before the
 * rename: a crash leaves no index, or the new snapshot's.
 */
export async function writeSnapshot(dir: string, content: SnapshotContent): Promise<void> {
  const temp = join(dir, SNAPSHOT_TEMP_FILE);
  const handle = await open(temp, 'w');
  const { packed } = content;
  const index = new SnapshotIndexBuilder(content.collections.reduce((sum, [, entries]) => sum + entries.length, 0));
  let identity: SnapshotIdentity;
  try {
    const out = new ChecksummedWriter(handle);
    const counts = Object.fromEntries(content.collections.map(([name, entries]) => [name, entries.length]));
    const header = jsonText({ format: FORMAT, seq: content.seq, nextIds: content.nextIds, counts, savedAt: new Date().toISOString() });
    await out.write(`${header}\n`);
    index.line(Buffer.byteLength(header) + 1);
    for (const [name, entries] of content.collections) {
      await out.write(`@${name}\n`);
      index.collection(name, entries.length);
      for (let start = 0; start < entries.length; start += RECORDS_PER_CHUNK) {
        const end = Math.min(entries.length, start + RECORDS_PER_CHUNK);
        let chunk = '';
        for (let i = start; i < end; i++) {
          const entry = entries[i] as (typeof entries)[number];
          const id = packed.idOf(entry);
          const digits = String(id);
          const text = packed.textOf(entry);
          chunk += `${digits}\t${text}\n`;
          index.record(id, digits.length, packed.fileLengthOf(entry) ?? Buffer.byteLength(text));
        }
        await out.write(chunk);
      }
    }
    const endLine = `#end ${crcText(out.crc)}\n`;
    await handle.appendFile(endLine);
    await handle.sync();
    identity = { bytes: index.bytes + endLine.length, crc: crcText(out.crc), header };
  } finally {
    await handle.close();
  }
  // Only a cache: a snapshot without one is read line by line.
  const indexTemp = join(dir, SNAPSHOT_INDEX_TEMP_FILE);
  const indexed =
    index.usable &&
    (await writeSnapshotIndex(indexTemp, index.contents(identity)).then(
      () => true,
      () => rm(indexTemp, { force: true }).then(() => false),
    ));
  await rm(join(dir, SNAPSHOT_INDEX_FILE), { force: true });
  await rename(temp, join(dir, SNAPSHOT_FILE));
  await fsyncDir(dir);
  if (indexed) await rename(indexTemp, join(dir, SNAPSHOT_INDEX_FILE));
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

/** A snapshot read into a store's state. */
export interface SnapshotRead {
  /**
   * Settles once the snapshot's checksum is known: rejects with `StoreCorruptError` when
   * it does not match. Nothing may be served from the state before it resolved.
   */
  checked: Promise<void>;
}

/**
 * Loads `snapshot.pla` into `state` (records, id counters, seq); undefined, with
 * `state` left empty, when there is none. The records are found through the
 * snapshot's index when it has a valid one (its checksum then verified on the side,
 * see `SnapshotRead`), else by reading every line. The file stays open for the records
 * left in it (`state.packed`). Throws `StoreCorruptError` for a snapshot whose
 * checksum does not match or whose lines are not what `writeSnapshot` writes.
 */
export async function readSnapshot(dir: string, state: StoreState): Promise<SnapshotRead | undefined> {
  const path = join(dir, SNAPSHOT_FILE);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  state.packed.adopt(fd);
  try {
    return loadSnapshot(fd, path, dir, state);
  } catch (error) {
    state.packed.close();
    throw error;
  }
}

function loadSnapshot(fd: number, path: string, dir: string, state: StoreState): SnapshotRead {
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
  const crc = end[1] as string;
  const body = size - END_LINE;
  const headerLine = firstLine(fd, body);
  const slots = headerLine === undefined ? undefined : readSnapshotIndex(join(dir, SNAPSHOT_INDEX_FILE), { bytes: size, crc, header: headerLine });
  const indexed = headerLine === undefined ? undefined : readHeader(headerLine);
  let header: Header;
  let checked: Promise<void>;
  if (slots === undefined || indexed === undefined || !indexFits(indexed, slots, body)) {
    const loader = new SnapshotLoader(fd, state, fail);
    forEachLineChunk(fd, body, (bytes, offset) => loader.chunk(bytes, offset));
    if (crcText(loader.crc) !== crc) fail('damaged: its checksum does not match its content');
    header = loader.finish();
    checked = Promise.resolve();
  } else {
    header = indexed;
    loadSlots(fd, state, slots);
    checked = snapshotChecksum(fd, path, body).then((actual) => {
      if (crcText(actual) !== crc) fail('damaged: its checksum does not match its content');
    });
    // Awaited by the caller, maybe only after other work: not an unhandled rejection meanwhile.
    checked.catch(() => {});
  }
  for (const [name, next] of Object.entries(header.nextIds)) {
    if (isCollectionName(name) && isRecordId(next)) state.raiseNextId(name, next);
  }
  state.seq = header.seq;
  return { checked };
}

/** The snapshot's first line (its header), if it ends within 64 KB. */
function firstLine(fd: number, body: number): string | undefined {
  const bytes = Buffer.allocUnsafe(Math.min(body, 64 << 10));
  const read = readSync(fd, bytes, 0, bytes.length, 0);
  const newline = bytes.subarray(0, read).indexOf(NEWLINE);
  return newline === -1 ? undefined : bytes.toString('utf8', 0, newline);
}

/**
 * Whether an index fits its snapshot's header: its own checksum says it is whole and
 * its identity that it was written with this snapshot, so only a fault of the writer
 * could fail this; the snapshot is then read line by line rather than trusted.
 */
function indexFits(header: Header, slots: SnapshotSlots, body: number): boolean {
  const { ids, starts, lengths } = slots;
  const seen = new Set<string>();
  let slot = 0;
  for (const [name, count] of slots.collections) {
    if (header.counts[name] !== count || seen.has(name)) return false;
    seen.add(name);
    let previous = 0;
    for (let i = slot; i < slot + count; i++) {
      const id = ids[i] as number;
      const start = starts[i] as number;
      if (!(id > previous && Number.isSafeInteger(id) && start > 0 && start + (lengths[i] as number) < body)) return false;
      previous = id;
    }
    slot += count;
  }
  return Object.entries(header.counts).every(([name, count]) => count === 0 || seen.has(name));
}

/** Hands the tables the records the index lists (`indexFits`). */
function loadSlots(fd: number, state: StoreState, slots: SnapshotSlots): void {
  const { ids, starts, lengths } = slots;
  state.packed.adopt(fd, starts, lengths, ids);
  let slot = 0;
  for (const [name, count] of slots.collections) {
    state.table(name).appendSlots(slot, slot + count);
    if (count > 0) state.raiseNextId(name, idAfter(ids[slot + count - 1] as number));
    slot += count;
  }
}

/**
 * Reads a snapshot's lines into `state` a chunk at a time: per record line, its id
 * (its digits up to the tab), where its JSON starts and how long it is, into the
 * pack's arrays; the tables get their slots a collection at a time.
 */
class SnapshotLoader {
  crc = 0;
  private header: Header | undefined;
  private line = 0;
  private starts = new Float64Array(0);
  private lengths = new Uint32Array(0);
  private ids = new Float64Array(0);
  private slot = 0;
  private collection: CollectionName | undefined;
  /** The collection's first slot not handed to its table yet. */
  private pending = 0;
  /** The collection's last id so far: a number, or a BigInt past 2^53 (then `previousId` is no longer used). */
  private previousId = 0;
  private previousBig: bigint | undefined;

  constructor(
    private readonly fd: number,
    private readonly state: StoreState,
    private readonly fail: (why: string) => never,
  ) {}

  chunk(bytes: Buffer, offset: number): void {
    this.crc = crc32(bytes, this.crc);
    let from = this.header === undefined ? this.readHeader(bytes) : 0;
    while (from < bytes.length) from = bytes[from] === AT ? this.startCollection(bytes, from) : this.records(bytes, from, offset);
  }

  /** Hands the last collection to its table; the header, once the whole file is read. */
  finish(): Header {
    if (this.header === undefined) return this.fail('no header');
    this.finishCollection();
    return this.header;
  }

  private readHeader(bytes: Buffer): number {
    const newline = bytes.indexOf(NEWLINE);
    this.line = 1;
    const header = readHeader(bytes.toString('utf8', 0, newline)) ?? this.fail(`line 1: not a ${FORMAT} snapshot header`);
    let total = 0;
    for (const count of Object.values(header.counts)) total += Number.isSafeInteger(count) ? (count as number) : this.fail('bad record counts in the header');
    [this.starts, this.lengths, this.ids] = [new Float64Array(total), new Uint32Array(total), new Float64Array(total)];
    this.state.packed.adopt(this.fd, this.starts, this.lengths, this.ids);
    this.header = header;
    return newline + 1;
  }

  private startCollection(bytes: Buffer, from: number): number {
    this.line++;
    const newline = bytes.indexOf(NEWLINE, from);
    this.finishCollection();
    const name = bytes.toString('utf8', from + 1, newline);
    if (!isCollectionName(name)) this.fail(`line ${this.line}: unknown collection ${name}`);
    this.collection = name as CollectionName;
    this.pending = this.slot;
    this.previousId = 0;
    this.previousBig = undefined;
    return newline + 1;
  }

  private finishCollection(): void {
    const { collection } = this;
    if (collection === undefined) return;
    const table = this.state.table(collection);
    table.appendSlots(this.pending, this.slot);
    this.pending = this.slot;
    const counted = this.header?.counts[collection];
    if (table.size !== counted) this.fail(`${collection}: ${table.size} records where the header says ${String(counted)}`);
    const last = this.previousBig ?? this.previousId;
    if (last !== 0) this.state.raiseNextId(collection, idAfter(last));
  }

  /** Record lines from `from` to the next collection line or the chunk's end (where it stops); `offset` is the chunk's in the file. */
  private records(bytes: Buffer, from: number, offset: number): number {
    if (this.collection === undefined) this.fail(`line ${this.line + 1}: unexpected line`);
    const { starts, lengths, ids } = this;
    let { slot, line, previousId } = this;
    while (from < bytes.length) {
      let at = from;
      let byte = bytes[at] as number;
      if (byte === AT) break;
      let id = 0;
      while (byte >= 0x30 && byte <= 0x39) {
        id = id * 10 + (byte - 0x30);
        byte = bytes[++at] as number;
      }
      line++;
      if (byte !== TAB || at === from) this.fail(`line ${line}: unexpected line`);
      const newline = bytes.indexOf(NEWLINE, at);
      if (slot >= ids.length) this.fail(`line ${line}: more records than the header counts`);
      if (at - from > 15 && !Number.isSafeInteger(id)) {
        // Past 2^53 the digits are exact in the file but not in a double: see `bigRecord`.
        [this.slot, this.line] = [slot, line];
        this.bigRecord(bytes.toString('latin1', from, at), bytes.toString('utf8', at + 1, newline));
        slot = this.slot;
        from = newline + 1;
        continue;
      }
      if (id <= previousId || this.previousBig !== undefined)
        this.fail(`line ${line}: ids must increase (${id} after ${String(this.previousBig ?? previousId)})`);
      starts[slot] = offset + at + 1;
      lengths[slot] = newline - at - 1;
      ids[slot] = id;
      previousId = id;
      slot++;
      from = newline + 1;
    }
    [this.slot, this.line, this.previousId] = [slot, line, previousId];
    return from;
  }

  /** A record whose id a double cannot hold exactly: parsed now and kept in memory as it parses (its slot stays unused). */
  private bigRecord(digits: string, text: string): void {
    const exact = BigInt(digits);
    if (this.previousBig !== undefined && exact <= this.previousBig) this.fail(`line ${this.line}: ids must increase (${exact} after ${this.previousBig})`);
    const record = parseRecordText(text);
    if (!isStoredRecord(record)) return this.fail(`line ${this.line}: a record needs a positive integer id`);
    const table = this.state.table(this.collection as CollectionName);
    table.appendSlots(this.pending, this.slot);
    table.append(record);
    this.previousBig = exact;
    this.slot++;
    this.pending = this.slot;
  }
}
