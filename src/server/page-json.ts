/**
 * JSON text of pages of stored records, from each record's text cached on first
 * use. Serializing records is most of what a page read costs (JSON.stringify of 20
 * records takes far longer than finding them), and a stored record never changes:
 * the store replaces the object on every write, so its text stays right for as long
 * as the object lives. The text equals `jsonText` of the page, byte for byte.
 */
import { jsonText } from '../json/json-text.js';
import type { StoredRecord } from '../store/types.js';

/** Records whose text is kept at most; past it the cache starts over (bounds its memory). */
const CAPACITY = 50_000;

let texts = new WeakMap<StoredRecord, string>();
let cached = 0;

function recordText(record: StoredRecord): string {
  let text = texts.get(record);
  if (text === undefined) {
    text = jsonText(record);
    if (++cached > CAPACITY) {
      texts = new WeakMap();
      cached = 1;
    }
    texts.set(record, text);
  }
  return text;
}

/**
 * A page (`{ content, page }`) whose content is the store's own, unchanged records.
 * Being this class (not a plain object, which a spread would make of it) is what lets
 * `toJson` use their cached text.
 */
export class StoredRecordPage<Info> {
  constructor(
    readonly content: StoredRecord[],
    readonly page: Info,
  ) {}
}

/** `jsonText(value)` (numbers exact), faster for a `StoredRecordPage`. */
export function toJson(value: unknown): string {
  if (!(value instanceof StoredRecordPage)) return jsonText(value);
  const { content, page } = value as StoredRecordPage<unknown>;
  // Appending builds a rope that is flattened once, when written; `join` would copy it all first.
  let text = '{"content":[';
  for (let i = 0; i < content.length; i++) text += (i ? ',' : '') + recordText(content[i] as StoredRecord);
  return `${text}],"page":${jsonText(page)}}`;
}
