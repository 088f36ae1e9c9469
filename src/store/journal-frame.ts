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
 */
import { crc32 } from 'node:zlib';
import { isRecordId } from '../contract/ids.js';
import { jsonText } from '../json/json-text.js';
import { parseJson } from '../json/json-parse.js';
import { isCollectionName } from './journal-entry.js';
import type { JournalEntry } from './journal-entry.js';
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

/** What a line of the journal is, as far as its frame tells. */
export type LineKind = 'framed' | 'unframed' | 'damaged';

/**
 * Checks one line, `bytes[from, to)` (`text` is the same bytes a character a byte):
 * `framed` when its checksum matches, `unframed` for a line of pla before checksums
 * (parsed in full, and the folder upgraded), else `damaged`.
 */
export function lineKind(bytes: Buffer, text: string, from: number, to: number): LineKind {
  if (text.startsWith(UNFRAMED_START, from)) return 'unframed';
  if (to - from <= BODY_AT || !text.startsWith(FRAME_START, from) || !text.startsWith('",', from + BODY_AT - 2)) return 'damaged';
  const written = text.slice(from + FRAME_START.length, from + BODY_AT - 2);
  if (!/^[0-9a-f]{8}$/.test(written)) return 'damaged';
  return crc32(bytes.subarray(from + BODY_AT, to)) === Number.parseInt(written, 16) ? 'framed' : 'damaged';
}

/** Reads a framed entry's skeleton, records left in place. */
class FrameReader {
  at: number;

  constructor(
    private readonly bytes: Buffer,
    private readonly text: string,
    from: number,
    private readonly to: number,
    private readonly offset: number,
  ) {
    this.at = from;
  }

  /** Consumes `literal` when it is next. */
  take(literal: string): boolean {
    if (!this.text.startsWith(literal, this.at)) return false;
    this.at += literal.length;
    return true;
  }

  /** A non-negative integer of at most 15 digits (exact as a double), else undefined. */
  integer(): number | undefined {
    let end = this.at;
    while (end < this.to && end - this.at <= 15 && this.text.charCodeAt(end) >= 48 && this.text.charCodeAt(end) <= 57) end++;
    if (end === this.at || end - this.at > 15) return undefined;
    const value = Number(this.text.slice(this.at, end));
    this.at = end;
    return value;
  }

  collection(): CollectionName | undefined {
    const end = this.text.indexOf('"', this.at);
    const name = end === -1 ? undefined : this.text.slice(this.at, end);
    if (!isCollectionName(name)) return undefined;
    this.at = end + 1;
    return name;
  }

  /** `{…}` without nesting, as an object (id counters; exact past 2^53). */
  flatObject(): unknown {
    const end = this.text.indexOf('}', this.at);
    if (end === -1) return undefined;
    const value = parseJson(this.bytes.toString('utf8', this.at, end + 1));
    this.at = end + 1;
    return value;
  }

  /** A put's record of `length` bytes, left where it is. */
  record(length: number, collection: CollectionName, id: number): PackedPut | undefined {
    if (this.at + length > this.to) return undefined;
    const put: PackedPut = { op: 'put', collection, id, bytes: this.bytes, from: this.at, length, position: this.offset + this.at };
    this.at += length;
    return put;
  }
}

/**
 * The entry of a `framed` line, records left in the file; undefined for a line of
 * another form (an id past 2^53, or a line a later pla wrote), which the caller then
 * parses in full.
 */
export function readFramedEntry(bytes: Buffer, text: string, from: number, to: number, offset: number): ScannedEntry | undefined {
  const reader = new FrameReader(bytes, text, from + BODY_AT, to, offset);
  if (!reader.take('"seq":')) return undefined;
  const seq = reader.integer();
  if (seq === undefined || seq === 0) return undefined;
  const entry: ScannedEntry = { seq };
  if (reader.take(',"clear":true')) entry.clear = true;
  if (reader.take(',"ids":')) {
    const ids = reader.flatObject();
    if (typeof ids !== 'object' || ids === null) return undefined;
    entry.ids = {};
    for (const [name, next] of Object.entries(ids)) {
      if (!isCollectionName(name) || !isRecordId(next)) return undefined;
      entry.ids[name] = next;
    }
  }
  if (reader.take(',"changes":[')) {
    const changes: NonNullable<ScannedEntry['changes']> = [];
    while (!reader.take(']')) {
      if (changes.length > 0 && !reader.take(',')) return undefined;
      const put = reader.take('{"op":"put","collection":"');
      if (!put && !reader.take('{"op":"delete","collection":"')) return undefined;
      const collection = reader.collection();
      if (collection === undefined || !reader.take(',"id":')) return undefined;
      const id = reader.integer();
      if (id === undefined || id === 0) return undefined;
      if (put) {
        if (!reader.take(',"length":')) return undefined;
        const length = reader.integer();
        if (length === undefined || !reader.take(',"record":')) return undefined;
        const change = reader.record(length, collection, id);
        if (change === undefined) return undefined;
        changes.push(change);
      } else {
        changes.push({ op: 'delete', collection, id });
      }
      if (!reader.take('}')) return undefined;
    }
    entry.changes = changes;
  }
  return reader.take('}') && reader.at === to ? entry : undefined;
}
