/**
 * The records the snapshot held when the store opened, left in the snapshot file and
 * read from it (and parsed) one by one when asked for. A million parsed records cost
 * several hundred MB of objects and most of a start-up's time; left in the file, each
 * costs its place in the file and its id. The records the journal put after the
 * snapshot are left in the journal file the same way (replay checks their entry's
 * checksum and steps over them by their length: `journal-frame.ts`). A table's rows are `Entry`s: a number is a record
 * of this pack (its slot: the snapshot's records first, then the journal's), an
 * object a record written since (or decoded for good, in a table with equality
 * indexes).
 *
 * Both files stay open until the store closes, so the records are read from the files
 * read at start even after a compaction renamed a new snapshot and journal over them
 * (their disk space is freed when the store closes). Nothing rewrites a byte of either
 * in place: the journal is only appended to, or cut after its last whole entry.
 */
import { closeSync, readSync } from 'node:fs';
import { parseJson } from '../json/json-parse.js';
import { recordText, rememberText } from './record-text.js';
import type { StoredRecord } from './types.js';

/** A record's JSON text as the store parses it (every number exact: json/json-parse.ts): the one place a snapshot's record becomes an object. */
export function parseRecordText(text: string): unknown {
  return parseJson(text);
}

/** A row of a table: a packed record's slot, or a record in memory. */
export type Entry = StoredRecord | number;

/** Records read from the pack and kept for the next read at most; past it the cache starts over. */
const DECODED_CAPACITY = 50_000;
/** What a scan reads from a file at once. */
const READ_AHEAD = 1 << 20;

/** The records kept in one file: per record, where its JSON starts, its length in bytes and its id. */
class PackFile {
  count: number;
  /** The last stretch of the file a scan read, and where it starts. */
  private window = Buffer.alloc(0);
  private windowStart = 0;

  constructor(
    public fd: number | undefined,
    readonly name: string,
    public starts: Float64Array,
    public lengths: Uint32Array,
    public ids: Float64Array,
  ) {
    this.count = lengths.length;
  }

  /** Adds a record (arrays grown as needed); returns its index. */
  add(id: number, start: number, length: number): number {
    const at = this.count++;
    if (at >= this.ids.length) {
      const capacity = Math.max(1024, at * 2);
      this.ids = grown(this.ids, new Float64Array(capacity));
      this.starts = grown(this.starts, new Float64Array(capacity));
      this.lengths = grown(this.lengths, new Uint32Array(capacity));
    }
    this.ids[at] = id;
    this.starts[at] = start;
    this.lengths[at] = length;
    return at;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.window = Buffer.alloc(0);
  }

  /** One record's bytes, read on their own into `scratch` (or a larger buffer); returns the text. */
  read(at: number, scratch: Buffer): string {
    const length = this.lengths[at] as number;
    const buffer = scratch.length < length ? Buffer.allocUnsafe(length) : scratch;
    this.fill(buffer, length, this.starts[at] as number);
    return buffer.toString('utf8', 0, length);
  }

  /** One record's bytes from the stretch last read, reading the next stretch when it is not there. */
  readAhead(at: number): string {
    const start = this.starts[at] as number;
    const length = this.lengths[at] as number;
    let offset = start - this.windowStart;
    if (offset < 0 || offset + length > this.window.length) {
      const size = Math.max(READ_AHEAD, length);
      if (this.window.length !== size) this.window = Buffer.allocUnsafe(size);
      this.window = this.window.subarray(0, this.fill(this.window, size, start, length));
      this.windowStart = start;
      offset = 0;
    }
    return this.window.toString('utf8', offset, offset + length);
  }

  /** Reads up to `size` bytes at `position` into `buffer` (at least `needed`, else the file changed under the store); returns how many. */
  fill(buffer: Buffer, size: number, position: number, needed = size): number {
    if (this.fd === undefined) throw new Error('the store is closed');
    let done = 0;
    while (done < size) {
      const read = readSync(this.fd, buffer, done, size - done, position + done);
      if (read === 0) break;
      done += read;
    }
    if (done < needed) throw new Error(`the ${this.name} file is shorter than when the store opened it`);
    return done;
  }
}

function grown<T extends Float64Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

const none = () => new PackFile(undefined, 'snapshot', new Float64Array(0), new Uint32Array(0), new Float64Array(0));

export class PackedRecords {
  /** Slots below `snapshot.count` are the snapshot's records; from it on, the journal's. */
  private snapshot = none();
  private journal: PackFile | undefined;
  private decoded = new Map<number, StoredRecord>();
  private scratch = Buffer.allocUnsafe(4096);

  /** Takes over an open snapshot file and the records found in it (closed by `close`). */
  adopt(fd: number, starts: Float64Array = new Float64Array(0), lengths: Uint32Array = new Uint32Array(0), ids: Float64Array = new Float64Array(0)): void {
    if (this.snapshot.fd !== fd) this.snapshot.close();
    this.snapshot = new PackFile(fd, 'snapshot', starts, lengths, ids);
  }

  /** Takes over the open journal file, whose records `addJournalRecord` then adds (closed by `close`). */
  adoptJournal(fd: number): void {
    if (this.journal?.fd !== fd) this.journal?.close();
    this.journal = new PackFile(fd, 'journal', new Float64Array(0), new Uint32Array(0), new Float64Array(0));
  }

  /**
   * A record left in the journal: `length` bytes at `start`, well-formed JSON, an
   * object with this `id`, and exactly as `jsonText` writes it (its text goes into
   * snapshots and pages as it is); returns its slot. Added once the snapshot's are known.
   */
  addJournalRecord(id: number, start: number, length: number): number {
    if (this.journal === undefined) throw new Error('no journal was adopted');
    return this.snapshot.count + this.journal.add(id, start, length);
  }

  close(): void {
    this.snapshot.close();
    this.journal?.close();
    this.decoded = new Map();
  }

  idOf(entry: Entry): StoredRecord['id'] {
    if (typeof entry !== 'number') return entry.id;
    const { snapshot } = this;
    return (entry < snapshot.count ? snapshot.ids[entry] : (this.journal as PackFile).ids[entry - snapshot.count]) as number;
  }

  /** The length in bytes of a slot's JSON text in its file; undefined for other entries. */
  fileLengthOf(entry: Entry): number | undefined {
    if (typeof entry !== 'number') return undefined;
    const [file, at] = this.locate(entry);
    return file.lengths[at];
  }

  /** The record of an entry; a packed one is read and kept a while, so reads of the same page or id read once. */
  recordOf(entry: Entry): StoredRecord {
    if (typeof entry !== 'number') return entry;
    const decoded = this.decoded.get(entry);
    if (decoded !== undefined) return decoded;
    const [file, at] = this.locate(entry);
    return this.keep(entry, this.parse(file.read(at, this.scratch)));
  }

  private keep(slot: number, record: StoredRecord): StoredRecord {
    if (this.decoded.size >= DECODED_CAPACITY) this.decoded = new Map();
    this.decoded.set(slot, record);
    return record;
  }

  /**
   * The records of several entries (a page), as `recordOf`; the snapshot's not read yet
   * that lie close together in the file (a page in id order) are read with one read.
   */
  recordsOf(entries: readonly Entry[]): StoredRecord[] {
    const { starts, lengths, count } = this.snapshot;
    let from = Infinity;
    let to = 0;
    let missing = 0;
    for (const entry of entries) {
      if (typeof entry !== 'number' || entry >= count || this.decoded.has(entry)) continue;
      missing++;
      from = Math.min(from, starts[entry] as number);
      to = Math.max(to, (starts[entry] as number) + (lengths[entry] as number));
    }
    if (missing > 1 && to - from <= READ_AHEAD) {
      const span = Buffer.allocUnsafe(to - from);
      this.snapshot.fill(span, span.length, from);
      for (const entry of entries) {
        if (typeof entry !== 'number' || entry >= count || this.decoded.has(entry)) continue;
        const at = (starts[entry] as number) - from;
        this.keep(entry, this.parse(span.toString('utf8', at, at + (lengths[entry] as number))));
      }
    }
    return entries.map((entry) => this.recordOf(entry));
  }

  /** The record of an entry, not kept: for scans in file order (a file is read a megabyte at a time). */
  peek(entry: Entry): StoredRecord {
    if (typeof entry !== 'number') return entry;
    return this.decoded.get(entry) ?? (parseRecordText(this.readAhead(entry)) as StoredRecord);
  }

  /**
   * As `peek`, but a packed record whose JSON text fails `test` is not parsed at all
   * (undefined): a filtered scan parses only the records whose text may match.
   */
  peekIf(entry: Entry, test: (text: string) => boolean): StoredRecord | undefined {
    if (typeof entry !== 'number') return entry;
    const decoded = this.decoded.get(entry);
    if (decoded !== undefined) return decoded;
    const text = this.readAhead(entry);
    return test(text) ? (parseRecordText(text) as StoredRecord) : undefined;
  }

  /** The JSON text of an entry's record, for writing a snapshot (in file order, as `peek`). */
  textOf(entry: Entry): string {
    return typeof entry === 'number' ? this.readAhead(entry) : recordText(entry);
  }

  /** Parses a record to hand out, noting its text for the page it may be written in. */
  private parse(text: string): StoredRecord {
    const record = parseRecordText(text) as StoredRecord;
    rememberText(record, text);
    return record;
  }

  private readAhead(slot: number): string {
    const [file, at] = this.locate(slot);
    return file.readAhead(at);
  }

  /** The file a slot's record is in, and its index there. */
  private locate(slot: number): [PackFile, number] {
    const { snapshot } = this;
    return slot < snapshot.count ? [snapshot, slot] : [this.journal as PackFile, slot - snapshot.count];
  }
}
