/**
 * A list page's body read as it arrives (src/json/json-chunks.ts), so that memory
 * holds the page's records, never its text as well: the transport hands each chunk
 * to `write` instead of collecting it. What comes out is what `parseBody` reads
 * leniently from the whole text (envelope and verdict included, decided on the
 * whole page: records are not handed out before the page has ended), with one
 * difference: a body that is not JSON comes back as its first 64 kB of text,
 * enough for the message that names it (answer.ts), not the whole of it.
 */
import { createJsonChunkParser } from '../json/json-chunks.js';
import { NestedTooDeepError } from '../json/json-parse.js';
import { TooDeepAnswer } from './nesting.js';

/** Text kept of a body in case it is not JSON, for the message that says what came. */
const HEAD_BYTES = 64 * 1024;

/** Takes an answer's body chunk by chunk; `write` never throws (a body that is not JSON is noted, not raised). */
export interface StreamedBody {
  write(chunk: Buffer): void;
  /** The body as `parseBody(…, strict false)` reads it: undefined when empty, its JSON, else the start of its text. Once. */
  end(): unknown;
}

/** Creates the reader of one answer's body. */
export function createStreamedBody(): StreamedBody {
  let parser = createJsonChunkParser();
  let head: Buffer[] = [];
  let headBytes = 0;
  let received = 0;
  let failed = false;
  let tooDeep = false;
  return {
    write(chunk) {
      received += chunk.length;
      if (headBytes < HEAD_BYTES) {
        const piece = Buffer.from(chunk.subarray(0, HEAD_BYTES - headBytes));
        head.push(piece);
        headBytes += piece.length;
      }
      if (failed) return;
      try {
        parser.write(chunk);
      } catch (error) {
        failed = true;
        tooDeep = error instanceof NestedTooDeepError;
      }
    },
    end() {
      // Whatever holds this reader afterwards (a closure, a request) must not hold a page with it:
      // holding each page's chunks past its end cost about 30 MB of peak memory over 200 pages.
      const [reader, start] = [parser, head];
      parser = createJsonChunkParser();
      head = [];
      if (received === 0) return undefined;
      if (!failed) {
        try {
          return reader.end();
        } catch (error) {
          // Not JSON: its start says what it is.
          tooDeep = error instanceof NestedTooDeepError;
        }
      }
      if (tooDeep) return new TooDeepAnswer();
      return Buffer.concat(start).toString('utf8');
    },
  };
}
