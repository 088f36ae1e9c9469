/**
 * Each stored record's JSON text, kept beside it once known. A stored record never
 * changes (the store replaces the object on every write), so its text stays right for
 * as long as the object lives. Records decoded from the snapshot come with their text
 * (`packed-records.ts`); others get it on first use. Serializing is most of what a page
 * read costs, so a page is written from these texts (`src/server/page-json.ts`).
 */
import { jsonText } from '../json/json-text.js';
import type { StoredRecord } from './types.js';

/** Records whose text is kept at most; past it the cache starts over (bounds its memory). */
const CAPACITY = 50_000;

let texts = new WeakMap<StoredRecord, string>();
let kept = 0;

/** Notes a record's text (exactly `jsonText(record)`). */
export function rememberText(record: StoredRecord, text: string): void {
  if (++kept > CAPACITY) {
    texts = new WeakMap();
    kept = 1;
  }
  texts.set(record, text);
}

/** `jsonText(record)` (numbers exact), from the kept text when there is one. */
export function recordText(record: StoredRecord): string {
  let text = texts.get(record);
  if (text === undefined) {
    text = jsonText(record);
    rememberText(record, text);
  }
  return text;
}
