/**
 * JSON bodies of stored records, from each record's text as the store keeps it
 * (`src/store/record-text.ts`: the snapshot's own text for a record read from it,
 * else kept on first use). Serializing records is most of what a page read costs
 * (JSON.stringify of 20 records takes far longer than finding them), and encoding
 * a joined text to UTF-8 the next most: a page is written as the records' UTF-8
 * bytes copied one after the other into the reply. The bytes equal `jsonText` of
 * the page, byte for byte.
 */
import { jsonText } from '../json/json-text.js';
import { knownRecordBytes, recordBytes } from '../store/record-text.js';
import type { StoredRecord } from '../store/types.js';
import { bodyBytes } from './body-bytes.js';

/**
 * A page (`{ content, page }`) whose content is the store's own, unchanged records.
 * Being this class (not a plain object, which a spread would make of it) is what lets
 * `toJson` use their kept text.
 */
export class StoredRecordPage<Info> {
  constructor(
    readonly content: StoredRecord[],
    readonly page: Info,
  ) {}
}

const PAGE_OPEN = Buffer.from('{"content":[');
const COMMA = 0x2c;

/** What `fillPage` writes: the records' bytes, then the rest of the page as text. */
interface PageParts {
  records: Buffer[];
  tail: string;
}

/** Names JSON.stringify writes as they are, between quotes. */
const PLAIN_NAME = /^[A-Za-z_][\w]*$/;

/**
 * `jsonText(info)` for a page's numbers (`{ size, totalElements, totalPages, number }`),
 * written without a call into JSON.stringify: a finite number's text is the same in
 * both. Anything else is left to `jsonText`.
 */
function pageInfoText(info: unknown): string {
  if (typeof info !== 'object' || info === null || Array.isArray(info)) return jsonText(info);
  let text = '{';
  for (const name of Object.keys(info)) {
    const value = (info as Record<string, unknown>)[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || !PLAIN_NAME.test(name)) return jsonText(info);
    text += `${text.length > 1 ? ',' : ''}"${name}":${value}`;
  }
  return `${text}}`;
}

function fillPage(target: Buffer, start: number, { records, tail }: PageParts): number {
  // Buffer#copy: the fastest of the ways tried to copy a few hundred bytes (TypedArray#set, a loop).
  let at = start + PAGE_OPEN.copy(target, start);
  for (let i = 0; i < records.length; i++) {
    if (i > 0) target[at++] = COMMA;
    at += (records[i] as Buffer).copy(target, at);
  }
  return at + target.write(tail, at);
}

/** `jsonText(value)` (numbers exact), as UTF-8 bytes straight from the records' kept bytes for a `StoredRecordPage`. */
export function toJson(value: unknown): string | Buffer {
  if (!(value instanceof StoredRecordPage)) return jsonText(value);
  const { content, page } = value as StoredRecordPage<unknown>;
  const records: Buffer[] = new Array<Buffer>(content.length);
  let size = PAGE_OPEN.length + content.length;
  for (let i = 0; i < content.length; i++) size += (records[i] = recordBytes(content[i] as StoredRecord)).length;
  const tail = `],"page":${pageInfoText(page)}}`;
  // A UTF-16 code unit is at most 3 bytes of UTF-8.
  return bodyBytes(size + tail.length * 3, fillPage, { records, tail });
}

/** What `fillEnvelope` writes: the envelope's text up to the record, the record's bytes, and the closing brace. */
interface EnvelopeParts {
  head: string;
  record: Buffer;
}

function fillEnvelope(target: Buffer, start: number, { head, record }: EnvelopeParts): number {
  let at = start + target.write(head, start);
  at += record.copy(target, at);
  target[at] = 0x7d; // }
  return at + 1;
}

/**
 * `jsonText(envelope)` for an envelope whose last field, `key`, holds `record`, when
 * the record's text is known (a record the store read, as a get by id answers it):
 * the other fields as text, the record's bytes copied as they are. Undefined when
 * the record's text is not known, or the envelope is not of that form.
 */
export function envelopeBytes(envelope: Record<string, unknown>, key: string, record: unknown): Buffer | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const bytes = knownRecordBytes(record);
  if (bytes === undefined) return undefined;
  const names = Object.keys(envelope);
  // The record's field last, as JSON.stringify would write it there.
  if (names[names.length - 1] !== key || envelope[key] !== record) return undefined;
  let head = '{';
  for (let i = 0; i < names.length - 1; i++) {
    const name = names[i] as string;
    const value = envelope[name];
    // JSON.stringify leaves such a field out altogether: not this form.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
    head += `${JSON.stringify(name)}:${jsonText(value)},`;
  }
  head += `${JSON.stringify(key)}:`;
  return bodyBytes(head.length * 3 + bytes.length + 1, fillEnvelope, { head, record: bytes });
}
