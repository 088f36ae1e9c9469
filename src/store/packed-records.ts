/**
 * The records the snapshot held when the store opened, left in the snapshot file and
 * read from it (and parsed) one by one when asked for. A million parsed records cost
 * several hundred MB of objects and most of a start-up's time; left in the file, each
 * costs its place in the file and its id. The records the journal put after the
 * snapshot are kept the same way, as their JSON text in memory (`addText`): replay
 * checks their text and parses none. A table's rows are `Entry`s: a number is a
 * record of this pack (its slot: the file's first, then the texts'), an object a
 * record written since (or decoded for good, in a table with equality indexes).
 *
 * The file stays open until the store closes, so the records are read from the file
 * that was read at start even after a compaction renamed a new snapshot over it (the
 * old one's disk space is freed when the store closes).
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
/** What a scan reads from the file at once. */
const READ_AHEAD = 1 << 20;

export class PackedRecords {
  private fd: number | undefined;
  /** Per slot of the file: where its JSON text starts in the file and its length in bytes. */
  private starts: Float64Array = new Float64Array(0);
  private lengths: Uint32Array = new Uint32Array(0);
  /** Slots below this are in the file; from it on, `texts` holds them. */
  private fileSlots = 0;
  private texts: string[] = [];
  /** Per slot (file and text): its id. Grows as texts are added. */
  private ids: Float64Array = new Float64Array(0);
  private decoded = new Map<number, StoredRecord>();
  private scratch = Buffer.allocUnsafe(4096);
  /** The last stretch of the file a scan read, and where it starts. */
  private window = Buffer.alloc(0);
  private windowStart = 0;

  /** Takes over an open snapshot file and the slots found in it (closed by `close`). */
  adopt(fd: number, starts: Float64Array = new Float64Array(0), lengths: Uint32Array = new Uint32Array(0), ids: Float64Array = new Float64Array(0)): void {
    if (this.fd !== fd) this.close();
    this.fd = fd;
    this.starts = starts;
    this.lengths = lengths;
    this.ids = ids;
    this.fileSlots = lengths.length;
  }

  /**
   * A record kept as its JSON text (well-formed, an object with this `id`, and
   * exactly as `jsonText` writes it: its text goes into snapshots and pages as it
   * is); returns its slot. Texts are added after the file's slots are known.
   */
  addText(id: number, text: string): number {
    const slot = this.fileSlots + this.texts.length;
    if (slot >= this.ids.length) {
      const grown = new Float64Array(Math.max(1024, Math.ceil(slot * 1.5)));
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[slot] = id;
    this.texts.push(text);
    return slot;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.decoded = new Map();
    this.texts = [];
    this.window = Buffer.alloc(0);
  }

  idOf(entry: Entry): StoredRecord['id'] {
    return typeof entry === 'number' ? (this.ids[entry] as number) : entry.id;
  }

  /** The record of an entry; a packed one is read and kept a while, so reads of the same page or id read once. */
  recordOf(entry: Entry): StoredRecord {
    if (typeof entry !== 'number') return entry;
    return this.decoded.get(entry) ?? this.keep(entry, this.parse(this.read(entry)));
  }

  private keep(slot: number, record: StoredRecord): StoredRecord {
    if (this.decoded.size >= DECODED_CAPACITY) this.decoded = new Map();
    this.decoded.set(slot, record);
    return record;
  }

  /**
   * The records of several entries (a page), as `recordOf`; packed ones not read yet
   * that lie close together in the file (a page in id order) are read with one read.
   */
  recordsOf(entries: readonly Entry[]): StoredRecord[] {
    let from = Infinity;
    let to = 0;
    let missing = 0;
    for (const entry of entries) {
      if (typeof entry !== 'number' || entry >= this.fileSlots || this.decoded.has(entry)) continue;
      missing++;
      from = Math.min(from, this.starts[entry] as number);
      to = Math.max(to, (this.starts[entry] as number) + (this.lengths[entry] as number));
    }
    if (missing > 1 && to - from <= READ_AHEAD) {
      const span = Buffer.allocUnsafe(to - from);
      this.fill(span, span.length, from);
      for (const entry of entries) {
        if (typeof entry !== 'number' || entry >= this.fileSlots || this.decoded.has(entry)) continue;
        const at = (this.starts[entry] as number) - from;
        this.keep(entry, this.parse(span.toString('utf8', at, at + (this.lengths[entry] as number))));
      }
    }
    return entries.map((entry) => this.recordOf(entry));
  }

  /** The record of an entry, not kept: for scans in file order (the file is read a megabyte at a time). */
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

  /** One record's bytes, read on their own. */
  private read(slot: number): string {
    if (slot >= this.fileSlots) return this.texts[slot - this.fileSlots] as string;
    const length = this.lengths[slot] as number;
    if (this.scratch.length < length) this.scratch = Buffer.allocUnsafe(length);
    this.fill(this.scratch, length, this.starts[slot] as number);
    return this.scratch.toString('utf8', 0, length);
  }

  /** One record's bytes from the stretch last read, reading the next stretch when it is not there. */
  private readAhead(slot: number): string {
    if (slot >= this.fileSlots) return this.texts[slot - this.fileSlots] as string;
    const start = this.starts[slot] as number;
    const length = this.lengths[slot] as number;
    let at = start - this.windowStart;
    if (at < 0 || at + length > this.window.length) {
      const size = Math.max(READ_AHEAD, length);
      if (this.window.length !== size) this.window = Buffer.allocUnsafe(size);
      this.window = this.window.subarray(0, this.fill(this.window, size, start, length));
      this.windowStart = start;
      at = 0;
    }
    return this.window.toString('utf8', at, at + length);
  }

  /** Reads up to `size` bytes at `position` into `buffer` (at least `needed`, else the file changed under the store); returns how many. */
  private fill(buffer: Buffer, size: number, position: number, needed = size): number {
    if (this.fd === undefined) throw new Error('the store is closed');
    let done = 0;
    while (done < size) {
      const read = readSync(this.fd, buffer, done, size - done, position + done);
      if (read === 0) break;
      done += read;
    }
    if (done < needed) throw new Error('the snapshot file is shorter than when the store opened it');
    return done;
  }
}
