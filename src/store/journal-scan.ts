/**
 * Journal replay's fast path: reads a journal line, as `jsonText` writes one, over its
 * bytes, and finds each put's record, checked but not parsed: the tables leave it in
 * the journal file (`PackedRecords.addJournalRecord`). Parsing 50,000 lines and their
 * records was most of a start-up's time and garbage.
 *
 * It accepts only what the slow path (`parseJournalEntry`) reads the same way: the
 * entry's keys (`seq`, `changes`, `ids`, `clear`) and the changes' (`op`, `collection`,
 * `record`, `id`) without escapes or spaces, ids and `seq` of at most 15 digits (exact
 * as doubles), known collections, and records that are well-formed JSON objects with
 * an `id` of that form. A record's text is also kept only in the form `jsonText`
 * writes (no whitespace; no `\/` or needless `\u` escapes, such as `\u0009` for `\t`
 * or an escaped surrogate pair; no exponent, trailing zero in a fraction or number
 * below 1e-6; no key twice in an object, and no integer key, which a parsed object
 * puts first): that text goes into snapshots, pages and the `where` filters' test of
 * a record's text as it is, so it must be what writing the parsed record gives. Anything else — a line written by hand,
 * a torn line, a number past 2^53 — returns undefined, and the line goes through the
 * slow path, which parses it, refuses it or reports it as before.
 */
import { isCollectionName } from './journal-entry.js';
import { COLLECTIONS } from './types.js';
import type { CollectionName, RecordId } from './types.js';

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

/** A journal entry as the fast path reads it: puts left in the file. */
export interface ScannedEntry {
  seq: number;
  ids?: Partial<Record<CollectionName, RecordId>>;
  changes?: Array<PackedPut | { op: 'delete'; collection: CollectionName; id: RecordId }>;
  clear?: true;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** Deeper records are left to the slow path (and its parser's own limits). */
const MAX_DEPTH = 64;
/** 15 digits: every such integer is exact as a double. */
const MAX_DIGITS = 15;

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const KEY_SEQ = ascii('seq');
const KEY_CHANGES = ascii('changes');
const KEY_IDS = ascii('ids');
const KEY_CLEAR = ascii('clear');
const KEY_OP = ascii('op');
const KEY_COLLECTION = ascii('collection');
const KEY_RECORD = ascii('record');
const KEY_ID = ascii('id');
const PUT = ascii('put');
const DELETE = ascii('delete');
const TRUE = ascii('true');
const FALSE = ascii('false');
const NULL = ascii('null');
const NAMES: ReadonlyArray<readonly [Uint8Array, CollectionName]> = COLLECTIONS.map((name) => [ascii(name), name] as const);

/** Thrown (this one object) when a line is not of the form the fast path reads. */
const NOT_FAST = new Error('not the fast form');

/*
 * Regular expressions for the usual line: they run as machine code from the first
 * line on, where a loop over the bytes is interpreted until the engine has optimised
 * it, which took most of a start (the first 5,000 of 50,000 lines).
 */
/**
 * A string as `jsonText` writes it: `\u` only for the control characters without a
 * short escape and for lone surrogates (a pair is written as the character itself).
 */
const FLAT_STRING = String.raw`"(?:[^"\\\x00-\x1f]|\\["\\bfnrt]|\\u00(?:0[0-7bef]|1[0-9a-f])|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|\\ud[c-f][0-9a-f]{2})*"`;
/** A key: a string, but not one JavaScript puts first in an object (an integer index). */
const FLAT_KEY = String.raw`(?!"(?:0|[1-9]\d*)")${FLAT_STRING}`;
/** Any value but an object or array; no number `jsonText` writes with an exponent (below 1e-6). */
const FLAT_VALUE = String.raw`(?:${FLAT_STRING}|(?!-0[,}])(?!-?0\.0{6})-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?(?=[,}])|true|false|null)`;
/** A record holding no object or array. */
const FLAT_RECORD_SOURCE = String.raw`\{${FLAT_KEY}:${FLAT_VALUE}(?:,${FLAT_KEY}:${FLAT_VALUE})*\}`;
const FLAT_RECORD = new RegExp(FLAT_RECORD_SOURCE, 'y');
/** A whole line putting one such record (what a create or an update writes), maybe with one id counter. */
const SINGLE_PUT = new RegExp(
  String.raw`\{"seq":([1-9]\d{0,14}),"changes":\[\{"op":"put","collection":"([A-Za-z]+)","record":(${FLAT_RECORD_SOURCE})\}\](?:,"ids":\{"([A-Za-z]+)":([1-9]\d{0,14})\})?\}`,
  'y',
);
const ID_VALUE = /[1-9]\d{0,14}(?=[,}])/y;
const SINGLE_PUT_PREFIX = '{"seq":,"changes":[{"op":"put","collection":"","record":'.length;

/**
 * The `id` of a flat record's text, or 0 when it has none, or more than one, or one of
 * another form. In a record holding no object or array, a key is its first member's or
 * follows a comma, and `,"id":` can be nothing but a key: in a string a quote is
 * escaped. (`record` is the record alone: the searches end with it.)
 */
function flatRecordId(record: string): number {
  if (!flatKeysDistinct(record)) return 0;
  const first = record.startsWith('{"id":') ? 0 : record.indexOf(',"id":');
  if (first === -1 || record.indexOf(',"id":', first + 1) !== -1) return 0;
  ID_VALUE.lastIndex = first + 6;
  const digits = ID_VALUE.exec(record);
  return digits === null ? 0 : Number(digits[0]);
}

/** One member of a record `FLAT_RECORD` matched: its key, then its value and the comma or brace after it. */
const FLAT_MEMBER = /("(?:[^"\\]+|\\.)*"):(?:"(?:[^"\\]+|\\.)*"|[^,}]*)[,}]/y;
/** Keys of the record being checked (reused: no array per line). */
const keys: string[] = [];

/**
 * Whether a flat record's keys are all different: a parser keeps the last of equal
 * keys, so a record repeating one is not `jsonText`'s and goes to the slow path.
 */
function flatKeysDistinct(record: string): boolean {
  keys.length = 0;
  FLAT_MEMBER.lastIndex = 1;
  for (let member = FLAT_MEMBER.exec(record); member !== null; member = FLAT_MEMBER.exec(record)) {
    if (!addKey(keys, member[1] as string)) return false;
  }
  return true;
}

/**
 * Adds a key's text (latin1: a byte a character) to those of its object; false when
 * it is there already. Each character has one form in `jsonText`'s strings, so equal
 * keys have equal text, except bytes that are not UTF-8, which all read as U+FFFD.
 */
function addKey(seen: string[], text: string): boolean {
  const key = /[\x80-\xff]/.test(text) ? Buffer.from(text, 'latin1').toString('utf8') : text;
  if (seen.includes(key)) return false;
  seen.push(key);
  return true;
}

/** The usual line (`SINGLE_PUT`), `text[from, to)`, read by regular expressions alone; undefined for any other. */
function singlePut(text: string, bytes: Buffer, from: number, to: number, offset: number): ScannedEntry | undefined {
  SINGLE_PUT.lastIndex = from;
  const match = SINGLE_PUT.exec(text);
  if (match === null || SINGLE_PUT.lastIndex !== to) return undefined;
  const [, seq, collection, record, counter, next] = match as unknown as [string, string, string, string, string | undefined, string | undefined];
  if (!isCollectionName(collection) || (counter !== undefined && !isCollectionName(counter))) return undefined;
  const at = from + SINGLE_PUT_PREFIX + seq.length + collection.length;
  const id = flatRecordId(record);
  if (id === 0) return undefined;
  const entry: ScannedEntry = { seq: Number(seq), changes: [{ op: 'put', collection, id, bytes, from: at, length: record.length, position: offset + at }] };
  if (counter !== undefined) entry.ids = { [counter]: Number(next) };
  return entry;
}

class LineScanner {
  position: number;

  /** Where the last record read ends. */
  private recordEnd = 0;

  constructor(
    private readonly bytes: Buffer,
    from: number,
    private readonly end: number,
    /** Where `bytes` starts in the file. */
    private readonly offset: number,
    /** `bytes` as text, one character a byte (latin1): the same positions. */
    private readonly text: string,
  ) {
    this.position = from;
  }

  entry(): ScannedEntry {
    const entry: ScannedEntry = { seq: 0 };
    this.expect(OPEN_BRACE);
    do {
      // Each key's "not seen yet" first: `isKey` moves past the key it finds.
      if (entry.seq === 0 && this.isKey(KEY_SEQ)) entry.seq = this.integer();
      else if (entry.changes === undefined && this.isKey(KEY_CHANGES)) entry.changes = this.changes();
      else if (entry.ids === undefined && this.isKey(KEY_IDS)) entry.ids = this.ids();
      else if (entry.clear === undefined && this.isKey(KEY_CLEAR)) {
        this.word(TRUE);
        entry.clear = true;
      } else throw NOT_FAST;
    } while (this.next(CLOSE_BRACE));
    if (this.position !== this.end || entry.seq === 0) throw NOT_FAST;
    return entry;
  }

  private changes(): NonNullable<ScannedEntry['changes']> {
    const changes: NonNullable<ScannedEntry['changes']> = [];
    this.expect(OPEN_BRACKET);
    if (this.bytes[this.position] === CLOSE_BRACKET) {
      this.position++;
      return changes;
    }
    do changes.push(this.change());
    while (this.next(CLOSE_BRACKET));
    return changes;
  }

  private change(): PackedPut | { op: 'delete'; collection: CollectionName; id: RecordId } {
    let op: 'put' | 'delete' | undefined;
    let collection: CollectionName | undefined;
    let id = 0;
    let from = -1;
    this.expect(OPEN_BRACE);
    do {
      if (op === undefined && this.isKey(KEY_OP)) op = this.op();
      else if (collection === undefined && this.isKey(KEY_COLLECTION)) collection = this.collection();
      else if (id === 0 && this.isKey(KEY_ID)) id = this.integer();
      else if (from === -1 && this.isKey(KEY_RECORD)) {
        from = this.position;
        id = this.record();
      } else throw NOT_FAST;
    } while (this.next(CLOSE_BRACE));
    if (collection === undefined || id === 0) throw NOT_FAST;
    if (op === 'put' && from !== -1) return { op, collection, id, bytes: this.bytes, from, length: this.recordEnd - from, position: this.offset + from };
    if (op === 'delete' && from === -1) return { op, collection, id };
    throw NOT_FAST;
  }

  private ids(): NonNullable<ScannedEntry['ids']> {
    const ids: NonNullable<ScannedEntry['ids']> = {};
    this.expect(OPEN_BRACE);
    do {
      const name = this.collectionKey();
      if (ids[name] !== undefined) throw NOT_FAST;
      ids[name] = this.integer();
    } while (this.next(CLOSE_BRACE));
    return ids;
  }

  /** A record object; returns its `id` (and notes where it ends). */
  private record(): number {
    const flat = this.flatRecord();
    if (flat !== 0) {
      this.recordEnd = this.position;
      return flat;
    }
    let id = 0;
    const seen: string[] = [];
    this.expect(OPEN_BRACE);
    if (this.bytes[this.position] === CLOSE_BRACE) throw NOT_FAST;
    do {
      if (this.isKey(KEY_ID)) {
        if (id !== 0) throw NOT_FAST;
        id = this.integer();
      } else {
        this.key(seen);
        this.value(1);
      }
    } while (this.next(CLOSE_BRACE));
    if (id === 0) throw NOT_FAST;
    this.recordEnd = this.position;
    return id;
  }

  /**
   * A record with no object or array in it (most are), checked by one regular
   * expression over the line's text (see `FLAT_RECORD`). Returns its id, or 0 to have
   * `record` read it byte by byte.
   */
  private flatRecord(): number {
    const start = this.position;
    FLAT_RECORD.lastIndex = start;
    // A match cannot go past the line: no string holds a raw newline.
    if (!FLAT_RECORD.test(this.text)) return 0;
    const end = FLAT_RECORD.lastIndex;
    const id = flatRecordId(this.text.slice(start, end));
    if (id !== 0) this.position = end;
    return id;
  }

  /** Skips one well-formed value in `jsonText`'s form. */
  private value(depth: number): void {
    if (depth > MAX_DEPTH) throw NOT_FAST;
    const bytes = this.bytes;
    switch (bytes[this.position]) {
      case QUOTE:
        return this.string();
      case OPEN_BRACE: {
        this.position++;
        if (bytes[this.position] === CLOSE_BRACE) {
          this.position++;
          return;
        }
        const seen: string[] = [];
        do {
          this.key(seen);
          this.value(depth + 1);
        } while (this.next(CLOSE_BRACE));
        return;
      }
      case OPEN_BRACKET:
        this.position++;
        if (bytes[this.position] === CLOSE_BRACKET) {
          this.position++;
          return;
        }
        do this.value(depth + 1);
        while (this.next(CLOSE_BRACKET));
        return;
      case 0x74: // t
        return this.word(TRUE);
      case 0x66: // f
        return this.word(FALSE);
      case 0x6e: // n
        return this.word(NULL);
      default:
        return this.number();
    }
  }

  /**
   * A key and its colon, as `jsonText` writes one: not an integer index (JavaScript
   * puts those first in an object, so the parsed record would be written in another
   * order) and not one of `seen`, its object's keys so far (a parser keeps the last).
   */
  private key(seen: string[]): void {
    const start = this.position;
    this.string();
    const text = this.text.slice(start + 1, this.position - 1);
    if (/^(?:0|[1-9]\d*)$/.test(text) || !addKey(seen, text)) throw NOT_FAST;
    this.expect(COLON);
  }

  /** A string as JSON.stringify writes it: no raw control characters; escapes only where it writes them. */
  private string(): void {
    const bytes = this.bytes;
    const end = this.end;
    let at = this.position;
    if (bytes[at] !== QUOTE) throw NOT_FAST;
    /** Where an escaped high surrogate ended: an escaped low one right after it is a pair, which `jsonText` writes as the character. */
    let high = -1;
    for (at++; at < end; at++) {
      const byte = bytes[at] as number;
      if (byte === QUOTE) {
        this.position = at + 1;
        return;
      }
      if (byte < 0x20) throw NOT_FAST;
      if (byte === BACKSLASH) {
        const code = this.escape(at + 1);
        if (code >= 0xdc00 && code <= 0xdfff && high === at) throw NOT_FAST;
        at += code >= 0 ? 5 : 1;
        high = code >= 0xd800 && code <= 0xdbff ? at + 1 : -1;
      }
    }
    throw NOT_FAST;
  }

  /** The escape after a backslash at `at - 1`: -1 for a short one (`\n`), else the code a `\u` escape stands for. */
  private escape(at: number): number {
    if (at >= this.end) throw NOT_FAST;
    switch (this.bytes[at]) {
      case QUOTE:
      case BACKSLASH:
      case 0x62: // b
      case 0x66: // f
      case 0x6e: // n
      case 0x72: // r
      case 0x74: // t
        return -1;
      case 0x75: {
        // u: JSON.stringify writes \u00xx for the control characters with no short escape and \udxxx for lone surrogates, in lower case
        let code = 0;
        for (let i = at + 1; i <= at + 4; i++) {
          const byte = this.bytes[i] as number;
          const digit = byte >= ZERO && byte <= NINE ? byte - ZERO : byte >= 0x61 && byte <= 0x66 ? byte - 0x61 + 10 : -1;
          if (digit < 0 || i >= this.end) throw NOT_FAST;
          code = code * 16 + digit;
        }
        if (code >= 0x20 && (code < 0xd800 || code > 0xdfff)) throw NOT_FAST;
        if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) throw NOT_FAST;
        return code;
      }
      default:
        throw NOT_FAST;
    }
  }

  /** A number as JSON.stringify writes it (no exponent, no `-0`, no trailing zero after a point); not read. */
  private number(): void {
    const bytes = this.bytes;
    let at = this.position;
    if (bytes[at] === MINUS) at++;
    const first = bytes[at] as number;
    if (at >= this.end || !(first >= ZERO && first <= NINE)) throw NOT_FAST;
    at++;
    if (first !== ZERO) while (at < this.end && (bytes[at] as number) >= ZERO && (bytes[at] as number) <= NINE) at++;
    if (bytes[at] === DOT) {
      const point = ++at;
      while (at < this.end && (bytes[at] as number) >= ZERO && (bytes[at] as number) <= NINE) at++;
      if (at === point || bytes[at - 1] === ZERO) throw NOT_FAST;
      // Below 1e-6 `jsonText` writes an exponent (`1e-7`).
      if (first === ZERO && this.text.startsWith('000000', point)) throw NOT_FAST;
    } else if (first === ZERO && bytes[this.position] === MINUS) throw NOT_FAST;
    // An exponent (or anything else right after the digits) is for the slow path.
    const after = bytes[at];
    if (at < this.end && after !== COMMA && after !== CLOSE_BRACE && after !== CLOSE_BRACKET) throw NOT_FAST;
    this.position = at;
  }

  /** A positive integer of at most 15 digits, no leading zero. */
  private integer(): number {
    const bytes = this.bytes;
    let at = this.position;
    let value = 0;
    const first = bytes[at] as number;
    if (at >= this.end || !(first > ZERO && first <= NINE)) throw NOT_FAST;
    for (; at < this.end; at++) {
      const byte = bytes[at] as number;
      if (byte < ZERO || byte > NINE) break;
      value = value * 10 + (byte - ZERO);
    }
    if (at - this.position > MAX_DIGITS) throw NOT_FAST;
    this.position = at;
    return value;
  }

  private op(): 'put' | 'delete' {
    if (this.isWordString(PUT)) return 'put';
    if (this.isWordString(DELETE)) return 'delete';
    throw NOT_FAST;
  }

  private collection(): CollectionName {
    for (const [bytes, name] of NAMES) if (this.isWordString(bytes)) return name;
    throw NOT_FAST;
  }

  /** A collection's name as a key, with its colon. */
  private collectionKey(): CollectionName {
    for (const [bytes, name] of NAMES) if (this.isKey(bytes)) return name;
    throw NOT_FAST;
  }

  /** Whether `"<word>":` comes next; if so, moves past it. */
  private isKey(word: Uint8Array): boolean {
    if (!this.isWordString(word)) return false;
    this.expect(COLON);
    return true;
  }

  /** Whether the string `"<word>"` comes next; if so, moves past it. */
  private isWordString(word: Uint8Array): boolean {
    const bytes = this.bytes;
    const at = this.position;
    if (bytes[at] !== QUOTE || bytes[at + word.length + 1] !== QUOTE || at + word.length + 2 > this.end) return false;
    for (let i = 0; i < word.length; i++) if (bytes[at + 1 + i] !== word[i]) return false;
    this.position = at + word.length + 2;
    return true;
  }

  private word(word: Uint8Array): void {
    const bytes = this.bytes;
    const at = this.position;
    if (at + word.length > this.end) throw NOT_FAST;
    for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word[i]) throw NOT_FAST;
    this.position = at + word.length;
    const after = bytes[this.position];
    if (this.position < this.end && after !== COMMA && after !== CLOSE_BRACE && after !== CLOSE_BRACKET) throw NOT_FAST;
  }

  private expect(byte: number): void {
    if (this.position >= this.end || this.bytes[this.position] !== byte) throw NOT_FAST;
    this.position++;
  }

  /** After a member or element: true at a comma (more follow), false at `close` (done). */
  private next(close: number): boolean {
    const byte = this.position < this.end ? this.bytes[this.position] : undefined;
    this.position++;
    if (byte === COMMA) return true;
    if (byte === close) return false;
    throw NOT_FAST;
  }
}

/**
 * The entry of the journal line `bytes[from, to)` (`bytes` starting at `offset` in the
 * file, and `text` the same bytes as latin1 text) with puts left in the file, or
 * undefined when the slow path is to read it.
 */
export function scanJournalLine(bytes: Buffer, text: string, from: number, to: number, offset: number): ScannedEntry | undefined {
  try {
    return singlePut(text, bytes, from, to, offset) ?? new LineScanner(bytes, from, to, offset, text).entry();
  } catch (error) {
    if (error === NOT_FAST) return undefined;
    throw error;
  }
}
