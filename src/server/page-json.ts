/**
 * JSON text of pages of stored records, from each record's text as the store keeps
 * it (`src/store/record-text.ts`: the snapshot's own text for a record read from it,
 * else cached on first use). Serializing records is most of what a page read costs
 * (JSON.stringify of 20 records takes far longer than finding them). The text equals
 * `jsonText` of the page, byte for byte.
 */
import { jsonText } from '../json/json-text.js';
import { recordText } from '../store/record-text.js';
import type { StoredRecord } from '../store/types.js';

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
