/**
 * Each stored record's JSON text, kept beside it once known. A stored record never
 * changes (the store replaces the object on every write), so its text stays right for
 * as long as the object lives. Records decoded from the snapshot come with their text
 * (`packed-records.ts`); others get it on first use. Serializing is most of what a page
 * read costs, so a page is written from these texts (`src/server/page-json.ts`).
 *
 * A record written into a page is kept as its UTF-8 bytes instead of its text (once,
 * in place of the text, not beside it): the next page with it copies the bytes into
 * the reply as they are, with no string to join, flatten and encode again.
 */
import { jsonText } from '../json/json-text.js';
import type { StoredRecord } from './types.js';

/** Records whose text is kept at most; past it the cache starts over (bounds its memory). */
const CAPACITY = 50_000;

let texts = new WeakMap<StoredRecord, string | Buffer>();
let kept = 0;

/** Notes a record's text (exactly `jsonText(record)`), as text or as its UTF-8 bytes. */
export function rememberText(record: StoredRecord, text: string | Buffer): void {
  if (++kept > CAPACITY) {
    texts = new WeakMap();
    kept = 1;
  }
  texts.set(record, text);
}

/** `jsonText(record)` (numbers exact), from the kept text when there is one. */
export function recordText(record: StoredRecord): string {
  const known = texts.get(record);
  if (typeof known === 'string') return known;
  if (known !== undefined) return known.toString('utf8');
  const text = jsonText(record);
  rememberText(record, text);
  return text;
}

/** `jsonText(record)` as UTF-8 bytes, kept from now on in place of the text. Read-only: shared by every reply that holds the record. */
export function recordBytes(record: StoredRecord): Buffer {
  const known = texts.get(record);
  if (known instanceof Buffer) return known;
  const bytes = Buffer.from(known ?? jsonText(record));
  if (known === undefined) rememberText(record, bytes);
  else texts.set(record, bytes);
  return bytes;
}

/** The record's bytes when its text is known already (the store read it from its snapshot, or it was in a page), else undefined. */
export function knownRecordBytes(record: object): Buffer | undefined {
  return texts.has(record as StoredRecord) ? recordBytes(record as StoredRecord) : undefined;
}
