/**
 * How a journal entry is written down: one line of `journal.ndjson`, a JSON object
 * whose first member is the CRC-32 of everything after it on the line, and whose puts
 * carry their record's id and length in bytes before the record:
 *
 *     {"crc32":"5f0c1e9a","seq":43,"ids":{"tasks":8},"changes":[{"op":"put","collection":"tasks","id":7,"length":58,"record":{…}},{"op":"delete","collection":"tasks","id":3}]}
 *
 * The checksum finds damage inside an entry (a letter or a digit changed), which still
 * parses as JSON and would be replayed as if written (SQLite's pages and LevelDB's log
 * records carry checksums for the same reason). The lengths let replay step over each
 * record without reading it: a line whose checksum matches was written by `frameEntry`,
 * so its form is known, and its records stay in the file, unparsed, until read
 * (`PackedRecords`). Any JSON reader still reads the line as the entry it is.
 *
 * Why replay reads a frame by hand rather than parsing the line (STYLE rule 19): a
 * million determinations written through the API, 150,000 of them in the journal as
 * bulk entries, opened in 0.5–0.6 s of CPU at 125 MB resident this way, against
 * 2.0–2.1 s and 194 MB with every line parsed (load average 21, one run each).
 */
import { crc32 } from 'node:zlib';
import { isRecordId } from '../contract/ids.js';
import { jsonText } from '../json/json-text.js';
import { parseJson } from '../json/json-parse.js';
import { isCollectionName } from './journal-entry.js';
import type { JournalEntry } from './journal-entry.js';
import { COLLECTIONS } from './types.js';
import type { CollectionName, RecordId } from './types.js';

/** What every framed line starts with, before its checksum's 8 hex digits and `",`. */
const FRAME_START = '{"crc32":"';
/** Where the checksummed bytes start: after `{"crc32":"xxxxxxxx",`. */
const BODY_AT = FRAME_START.length + 10;
/** How a journal line of pla before checksums starts (`jsonText` of an entry: `seq` first). */
const UNFRAMED_START = '{"seq":';

/**
 * A put whose record is left in the journal: its JSON is `bytes[from, from + length)`,
 * at `position` in the file. The bytes are the reader's, valid while the line is applied.
 */
export interface PackedPut {
  op: 'put';
  collection: CollectionName;
  id: number;
  bytes: Buffer;
  from: number;
  length: number;
  position: number;
}

/** A framed journal entry as replay reads it: puts left in the file. */
export interface ScannedEntry {
  seq: number;
  ids?: Partial<Record<CollectionName, RecordId>>;
  changes?: Array<PackedPut | { op: 'delete'; collection: CollectionName; id: RecordId }>;
  clear?: true;
}

/** The line (without its newline) that journals `entry`. */
export function frameEntry(entry: JournalEntry): string {
  let body = `"seq":${entry.seq}`;
  if (entry.clear === true) body += ',"clear":true';
  if (entry.ids !== undefined) body += `,"ids":${jsonText(entry.ids)}`;
  if (entry.changes !== undefined) {
    const changes = entry.changes.map((change) => {
      const head = `{"op":"${change.op}","collection":"${change.collection}"`;
      if (change.op === 'delete') return `${head},"id":${jsonText(change.id)}}`;
      const record = jsonText(change.record);
      return `${head},"id":${jsonText(change.record.id)},"length":${Buffer.byteLength(record)},"record":${record}}`;
    });
    body += `,"changes":[${changes.join(',')}]`;
  }
  body += '}';
  return `${FRAME_START}${hex(crc32(body))}",${body}`;
}

function hex(crc: number): string {
  return crc.toString(16).padStart(8, '0');
}

const FRAME_START_BYTES = Buffer.from(FRAME_START);
const UNFRAMED_START_BYTES = Buffer.from(UNFRAMED_START);
const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** Whether `bytes` holds `literal` at `at`. */
function holds(bytes: Buffer, at: number, literal: Buffer): boolean {
  if (at + literal.length > bytes.length) return false;
  for (let i = 0; i < literal.length; i++) if (bytes[at + i] !== literal[i]) return false;
  return true;
}

/** The checksum a line written by `frameEntry` starting at `from` says it has, or -1. */
function writtenChecksum(bytes: Buffer, from: number, to: number): number {
  if (to - from <= BODY_AT || !holds(bytes, from, FRAME_START_BYTES) || bytes[from + BODY_AT - 2] !== QUOTE || bytes[from + BODY_AT - 1] !== 0x2c) return -1;
  let crc = 0;
  for (let at = from + FRAME_START.length; at < from + BODY_AT - 2; at++) {
    const c = bytes[at] as number;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit === -1) return -1;
    crc = crc * 16 + digit;
  }
  return crc;
}

/** What a line of the journal is, as far as its frame tells. */
export type LineKind = 'framed' | 'unframed' | 'damaged';

/**
 * Checks one line, `bytes[from, to)`: `framed` when its checksum matches, `unframed`
 * for a line of pla before checksums (parsed in full, and the folder upgraded), else
 * `damaged`.
 */
export function lineKind(bytes: Buffer, from: number, to: number): LineKind {
  if (holds(bytes, from, UNFRAMED_START_BYTES)) return 'unframed';
  const written = writtenChecksum(bytes, from, to);
  return written !== -1 && crc32(bytes.subarray(from + BODY_AT, to)) === written ? 'framed' : 'damaged';
}

const literal = (text: string) => Buffer.from(text);
const SEQ = literal('"seq":');
const CLEAR = literal(',"clear":true');
const IDS = literal(',"ids":');
const CHANGES = literal(',"changes":[');
const PUT = literal('{"op":"put","collection":"');
const DELETE = literal('{"op":"delete","collection":"');
const ID = literal(',"id":');
const LENGTH = literal(',"length":');
const RECORD = literal(',"record":');
const NAMES = COLLECTIONS.map((name) => [name, literal(`${name}"`)] as const);

/** Reads a framed entry's skeleton over its bytes, records left in place. */
class FrameReader {
  constructor(
    private readonly bytes: Buffer,
    public at: number,
    private readonly limit: number,
    private readonly offset: number,
  ) {}

  /** Consumes `text` when it is next. */
  take(text: Buffer): boolean {
    if (!holds(this.bytes, this.at, text)) return false;
    this.at += text.length;
    return true;
  }

  /** Consumes the byte `c` when it is next. */
  takeByte(c: number): boolean {
    if (this.bytes[this.at] !== c) return false;
    this.at++;
    return true;
  }

  /** A non-negative integer of at most 15 digits (exact as a double), else -1. */
  integer(): number {
    const { bytes } = this;
    let value = 0;
    let at = this.at;
    for (; at < this.limit && at - this.at <= 15; at++) {
      const c = bytes[at] as number;
      if (c < 0x30 || c > 0x39) break;
      value = value * 10 + (c - 0x30);
    }
    if (at === this.at || at - this.at > 15) return -1;
    this.at = at;
    return value;
  }

  /** A collection's name and its closing quote, compared byte by byte: no string is made per change. */
  collection(): CollectionName | undefined {
    for (const [name, bytes] of NAMES) {
      if (this.take(bytes)) return name;
    }
    return undefined;
  }

  /** `{…}` without nesting, as an object (id counters; exact past 2^53). */
  flatObject(): unknown {
    const end = this.bytes.indexOf(0x7d, this.at);
    if (end === -1 || end >= this.limit) return undefined;
    let value: unknown;
    try {
      value = parseJson(this.bytes.toString('utf8', this.at, end + 1));
    } catch {
      // A line changed here: its checksum would not have matched either.
      return undefined;
    }
    this.at = end + 1;
    return value;
  }

  /** A put's record of `length` bytes, left where it is. */
  record(length: number, collection: CollectionName, id: number): PackedPut | undefined {
    if (this.at + length > this.limit) return undefined;
    const put: PackedPut = { op: 'put', collection, id, bytes: this.bytes, from: this.at, length, position: this.offset + this.at };
    this.at += length;
    return put;
  }
}

/** A framed entry found at the start of a line, and where its line ends (its newline, or the end of the bytes). */
export interface FramedLine {
  entry: ScannedEntry;
  end: number;
}

/**
 * The entry of the line that starts at `from` (`offset + from` in the file), read as
 * `frameEntry` writes it, its records left in the file: its skeleton is read first,
 * stepping over each record by its length, then the checksum of exactly the bytes up
 * to the newline it ends at is checked. Undefined for any other line (damaged, torn,
 * unframed, or framed in a form this reader does not step through: an id past 2^53),
 * which the caller then looks at whole (`lineKind`). `limit` is where the bytes end.
 */
export function readFramedLine(bytes: Buffer, from: number, limit: number, offset: number): FramedLine | undefined {
  const written = writtenChecksum(bytes, from, limit);
  if (written === -1) return undefined;
  const reader = new FrameReader(bytes, from + BODY_AT, limit, offset);
  if (!reader.take(SEQ)) return undefined;
  const seq = reader.integer();
  if (seq <= 0) return undefined;
  const entry: ScannedEntry = { seq };
  if (reader.take(CLEAR)) entry.clear = true;
  if (reader.take(IDS)) {
    const ids = reader.flatObject();
    if (typeof ids !== 'object' || ids === null) return undefined;
    entry.ids = {};
    for (const [name, next] of Object.entries(ids)) {
      if (!isCollectionName(name) || !isRecordId(next)) return undefined;
      entry.ids[name] = next;
    }
  }
  if (reader.take(CHANGES)) {
    const changes: NonNullable<ScannedEntry['changes']> = [];
    while (!reader.takeByte(0x5d)) {
      if (changes.length > 0 && !reader.takeByte(0x2c)) return undefined;
      const put = reader.take(PUT);
      if (!put && !reader.take(DELETE)) return undefined;
      const collection = reader.collection();
      if (collection === undefined || !reader.take(ID)) return undefined;
      const id = reader.integer();
      if (id <= 0) return undefined;
      if (put) {
        if (!reader.take(LENGTH)) return undefined;
        const length = reader.integer();
        if (length < 0 || !reader.take(RECORD)) return undefined;
        const change = reader.record(length, collection, id);
        if (change === undefined) return undefined;
        changes.push(change);
      } else {
        changes.push({ op: 'delete', collection, id });
      }
      if (!reader.takeByte(0x7d)) return undefined;
    }
    entry.changes = changes;
  }
  if (!reader.takeByte(0x7d)) return undefined;
  const end = reader.at;
  if (end !== limit && bytes[end] !== NEWLINE) return undefined;
  return crc32(bytes.subarray(from + BODY_AT, end)) === written ? { entry, end } : undefined;
}
