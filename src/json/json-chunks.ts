/**
 * Reading one JSON document as it arrives, chunk by chunk, without ever holding
 * its text more than once (src/json/: json-parse.ts reads a text, this file a
 * stream of chunks). A list page held as received chunks, their join, the string
 * and the parse at once took five times its size (a 60 MB page: 315 MB of peak
 * memory); read here, it costs its values and a chunk (165 MB).
 *
 * How: a scanner follows the document's structure byte by byte (strings, escapes,
 * nesting). Every array near the top (at most `SHALLOW` containers deep: a bare
 * array, `content`, `data.content`, `result.data.content` …) is taken apart as the
 * bytes of its whole elements, a batch per chunk, parsed with `parseJson` as the
 * batch ends; everything else (envelope, page fields, verdict) is kept as text with
 * a placeholder where each such array was, parsed at the end, when the placeholders
 * are replaced by the arrays. The value is the one `parseJson` gives for the whole
 * text, numbers exact, repeated keys included (the last wins, placeholder and all);
 * a text `parseJson` refuses throws a `SyntaxError` (not always with `JSON.parse`'s
 * words).
 *
 * Tiny elements are held as bytes and parsed only at the end: a value takes more
 * memory than its text (`{}` three bytes, an empty object about thirty), so a
 * service sending `[{},{},…` without end drove a parse-as-it-comes reader to 943 MB
 * before the answer's size cap (64 MB of bytes) cut it; held as bytes it stops at
 * 145 MB, as a buffered read did (130 MB). Records of a real page are larger than
 * `PARSED_NOW_FROM` and parsed as they come.
 *
 * Splitting at structural bytes is safe for UTF-8: every byte of a multi-byte
 * character is 0x80 or above, so `,`, `]` and `"` never fall inside one.
 */
import { parseJson } from './json-parse.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-bytes.js';

/** Arrays inside at most this many containers are read element by element (a page's records are at most three deep). */
const SHALLOW = 3;

/**
 * Elements of at least this many bytes on average are parsed as they arrive: their
 * values take at most about twice their bytes. Smaller ones are held as bytes to
 * the end (see the module comment).
 */
const PARSED_NOW_FROM = 64;

/** Stands in for an array in the kept text; the nonce keeps a service's own string from looking like one. */
const MARK = `\u0000pla-array:${Math.random().toString(36).slice(2)}:`;

/** Takes a document's bytes in order; `end` gives its value. */
export interface JsonChunkParser {
  /** The next bytes of the document; throws a `SyntaxError` as soon as its nesting is wrong. */
  write(chunk: Buffer): void;
  /** The document's value; throws a `SyntaxError` when the text is not one JSON document. */
  end(): unknown;
}

/** Whole elements of an array, comma-separated: parsed together (one parse per element cost twice the time). */
interface Batch {
  bytes: Buffer;
  /** How many elements the bytes must hold: `[1,]` and `[,]` parse to too few. */
  elements: number | 'one or none';
}

/** An array held apart. */
interface OpenArray {
  /** Containers open around it. */
  depth: number;
  /** Its values, once the document has ended. */
  values: unknown[];
  /** Its whole elements' bytes, in order, until the document has ended. */
  batches: Batch[];
  /** Its bytes not yet in a batch (earlier chunks'). */
  text: Buffer[];
  /** Its commas in `text` and the chunk so far: each ends an element. */
  commas: number;
  /** Where its last comma in the current chunk is (-1: none). */
  lastComma: number;
  /** Whether it has had a comma (then `]` ends an element: `[1,]` is not JSON). */
  comma: boolean;
}

/** Parses a batch onto its array's values. */
function parseBatch(array: OpenArray, batch: Batch): void {
  const values = parseJson(`[${batch.bytes.toString('utf8')}]`) as unknown[];
  if (batch.elements === 'one or none' ? values.length > 1 : values.length !== batch.elements)
    throw new SyntaxError('Unexpected "," or "]" in JSON: an array element is missing');
  for (const value of values) array.values.push(value);
}

/** Puts each array back where its placeholder is (only objects hold placeholders: an array near the top is always read apart). */
function restore(value: unknown, arrays: readonly unknown[][], depth: number): unknown {
  if (typeof value === 'string' && value.startsWith(MARK)) return arrays[Number(value.slice(MARK.length))];
  if (depth < SHALLOW && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const restored = restore(object[key], arrays, depth + 1);
      // Defined, not assigned: a `__proto__` field is the object's own data, as JSON.parse made it.
      if (restored !== object[key]) Object.defineProperty(object, key, { value: restored, writable: true, enumerable: true, configurable: true });
    }
  }
  return value;
}

/** Creates a parser for one document (see the module comment). */
export function createJsonChunkParser(): JsonChunkParser {
  /** The document's text outside the arrays read apart. */
  const kept: Buffer[] = [];
  const arrays: OpenArray[] = [];
  /** Open containers, innermost last: true for an array. */
  const open: boolean[] = [];
  let inString = false;
  let escaped = false;
  let reading: OpenArray | undefined;

  /**
   * Takes `pieces`, the bytes of `elements` whole elements: parsed now when they are
   * large enough that their values cost no more than about twice their bytes, else
   * (and after any batch held, to keep the order) held as a batch of their own until
   * the end (a slice would hold its whole chunk).
   */
  const take = (array: OpenArray, pieces: Buffer[], elements: Batch['elements']) => {
    const batch = { bytes: Buffer.concat(pieces), elements };
    if (array.batches.length === 0 && batch.bytes.length >= PARSED_NOW_FROM * (elements === 'one or none' ? 1 : elements)) parseBatch(array, batch);
    else array.batches.push(batch);
  };

  return {
    write(chunk) {
      /** Where the bytes not yet passed on (to `kept` or the array read apart) start. */
      let from = 0;
      /** Passes the bytes up to `to` on to the kept text; copied, since it lasts to the end (a slice would hold its whole chunk). */
      const keep = (to: number) => {
        if (to > from) kept.push(Buffer.from(chunk.subarray(from, to)));
      };
      /** The next backslash at or after `i` (-1: none in this chunk), found once per chunk and again only once passed. */
      let backslash = chunk.indexOf(BACKSLASH);
      for (let i = 0; i < chunk.length; i += 1) {
        if (inString) {
          // Most of a page's bytes are inside strings: skipped with native searches, not byte by byte.
          if (escaped) {
            escaped = false;
            continue;
          }
          if (backslash !== -1 && backslash < i) backslash = chunk.indexOf(BACKSLASH, i);
          const quote = chunk.indexOf(QUOTE, i);
          if (backslash !== -1 && (quote === -1 || backslash < quote)) {
            // The escaped byte is skipped (it may be the next chunk's first).
            escaped = backslash + 1 === chunk.length;
            i = backslash + 1;
            continue;
          }
          if (quote === -1) break;
          inString = false;
          i = quote;
          continue;
        }
        const byte = chunk[i];
        switch (byte) {
          case QUOTE:
            inString = true;
            break;
          case OPEN_BRACE:
            open.push(false);
            break;
          case OPEN_BRACKET:
            if (reading === undefined && open.length <= SHALLOW) {
              keep(i);
              kept.push(Buffer.from(JSON.stringify(`${MARK}${arrays.length}`)));
              reading = { depth: open.length, values: [], batches: [], text: [], commas: 0, lastComma: -1, comma: false };
              arrays.push(reading);
              from = i + 1;
            }
            open.push(true);
            break;
          case CLOSE_BRACKET:
          case CLOSE_BRACE:
            if (open.pop() !== (byte === CLOSE_BRACKET)) throw new SyntaxError(`Unexpected "${String.fromCharCode(byte)}" in JSON`);
            if (reading !== undefined && open.length === reading.depth) {
              take(reading, [...reading.text, chunk.subarray(from, i)], reading.comma ? reading.commas + 1 : 'one or none');
              reading = undefined;
              from = i + 1;
            }
            break;
          case COMMA:
            if (reading !== undefined && open.length === reading.depth + 1) {
              reading.commas += 1;
              reading.lastComma = i;
              reading.comma = true;
            }
            break;
        }
      }
      if (reading === undefined) keep(chunk.length);
      else if (reading.lastComma === -1) reading.text.push(chunk.subarray(from));
      else {
        // The elements this chunk ended make a batch; the start of the next one waits for the next chunk.
        take(reading, [...reading.text, chunk.subarray(from, reading.lastComma)], reading.commas);
        reading.text = [chunk.subarray(reading.lastComma + 1)];
        reading.commas = 0;
        reading.lastComma = -1;
      }
    },
    end() {
      if (reading !== undefined || open.length > 0 || inString) throw new SyntaxError('Unexpected end of JSON input');
      const outside = parseJson(Buffer.concat(kept).toString('utf8'));
      kept.length = 0;
      for (const array of arrays) {
        // Oldest first, each batch let go once parsed: the bytes shrink as the values grow.
        const batches = array.batches.reverse();
        for (let batch = batches.pop(); batch !== undefined; batch = batches.pop()) parseBatch(array, batch);
      }
      return restore(
        outside,
        arrays.map((array) => array.values),
        0,
      );
    },
  };
}

/** The value of the JSON document `chunks` make up (see `createJsonChunkParser`), for a stream or any async iterable of bytes. */
export async function parseJsonChunks(chunks: AsyncIterable<Buffer | Uint8Array>): Promise<unknown> {
  const parser = createJsonChunkParser();
  for await (const chunk of chunks) parser.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  return parser.end();
}
