/**
 * A list page's body taken as it arrives and read by stream-json
 * (src/json/json-stream.ts), so that memory holds the page's bytes and then its
 * records, never its text as well: the transport hands each chunk to `write`
 * instead of collecting it. What comes out is what `parseBody` reads leniently
 * from the whole text (envelope and verdict included, decided on the whole page),
 * with one difference: a body that is not JSON comes back as its first 64 kB of
 * text, enough for the message that names it (answer.ts), not the whole of it.
 *
 * Parsed once the page has ended, not as it comes: records parsed as they came
 * take more memory than their bytes (a service sending 45-byte records without end
 * reached 351 MB before the answer's size cap cut it; held as bytes, 165 MB), and
 * a page is judged whole anyway. A 60 MB page peaks at about 224 MB (bytes, then
 * values as the bytes are let go; 253 MB parsed as it came).
 */
import { parseJsonChunks } from '../json/json-stream.js';

/** Text kept of a body in case it is not JSON, for the message that says what came. */
const HEAD_BYTES = 64 * 1024;

/** Takes an answer's body chunk by chunk; `write` never throws. */
export interface StreamedBody {
  write(chunk: Buffer): void;
  /** The body as `parseBody(…, strict false)` reads it: undefined when empty, its JSON, else the start of its text. Once. */
  end(): Promise<unknown>;
}

/** Creates the reader of one answer's body. */
export function createStreamedBody(): StreamedBody {
  let chunks: Buffer[] = [];
  let head: Buffer[] = [];
  let headBytes = 0;
  return {
    write(chunk) {
      if (headBytes < HEAD_BYTES) {
        const piece = Buffer.from(chunk.subarray(0, HEAD_BYTES - headBytes));
        head.push(piece);
        headBytes += piece.length;
      }
      chunks.push(chunk);
    },
    async end() {
      // Whatever holds this reader afterwards (a closure, a request) must not hold a page with it.
      const [body, start] = [chunks, head];
      chunks = [];
      head = [];
      if (body.length === 0) return undefined;
      try {
        return await parseJsonChunks(body);
      } catch {
        // Not JSON: its start says what it is.
        return Buffer.concat(start).toString('utf8');
      }
    },
  };
}
