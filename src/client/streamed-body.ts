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
 * a page is judged whole anyway. A 60 MB page peaks at about 160 to 180 MB on
 * Node 20, 22 and 24 (bytes, then values as the bytes are given back; see
 * HeldBytes and keepYoungGenerationSmall).
 */
import { parseJsonChunks } from '../json/json-stream.js';

/** Text kept of a body in case it is not JSON, for the message that says what came. */
const HEAD_BYTES = 64 * 1024;

/**
 * Stops V8 growing its young generation from here on. A page's records are held as
 * values until the page is judged, and V8 doubles the young generation each time
 * more than its size has survived since it last grew: 60 MB of records take it to
 * its ceiling, 32 MB on Node 20 and 22 but 128 MB on Node 24, all of it resident.
 * A 60 MB page peaked at 328 MB on Node 24, 290 MB with HeldBytes
 * (test/cli/streamed-pages.test.ts, bound 240 MB); with the young generation
 * kept at its starting size, values move to the old generation at the next
 * scavenge instead, for more (cheap) scavenges. `node:v8`'s documented
 * `setFlagsFromString` sets V8's `--semi-space-growth-factor` (listed by
 * `node --v8-options` on every Node pla runs on); the size flags
 * (`--max-semi-space-size`) are read only when the heap is made, so they would take
 * a second process.
 */
function keepYoungGenerationSmall(): void {
  process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}

/** Takes an answer's body chunk by chunk; `write` never throws. */
export interface StreamedBody {
  write(chunk: Buffer): void;
  /** The body as `parseBody(…, strict false)` reads it: undefined when empty, its JSON, else the start of its text. Once. */
  end(): Promise<unknown>;
}

/**
 * The size of a block of held bytes: under V8's large-object size (128 kB), so the
 * text the parser makes of each block dies young too (256 kB blocks left 13 MB of
 * such texts resident).
 */
const BLOCK_BYTES = 64 * 1024;

/**
 * An answer's bytes, copied as they come into blocks of their own, each given back
 * to the system as soon as the parser has read it. The chunks the transport hands
 * over are freed only when V8 next collects the old generation (they have lived
 * through the download), so a page read from them held all its bytes and all its
 * values at once (a 60 MB page: 48 MB of read chunks still resident at the end;
 * with blocks, 6 MB).
 * A block is a resizable ArrayBuffer: V8 reserves its memory itself and returns
 * it to the system when the block shrinks, at once and whatever the collector does.
 */
class HeldBytes {
  private blocks: ArrayBuffer[] = [];

  get empty(): boolean {
    return this.blocks.length === 0;
  }

  add(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length;) {
      let block = this.blocks.at(-1);
      if (block === undefined || block.byteLength === BLOCK_BYTES) {
        block = new ArrayBuffer(0, { maxByteLength: BLOCK_BYTES });
        this.blocks.push(block);
      }
      const start = block.byteLength;
      const taken = Math.min(BLOCK_BYTES - start, chunk.length - at);
      block.resize(start + taken);
      new Uint8Array(block, start, taken).set(chunk.subarray(at, at + taken));
      at += taken;
    }
  }

  /** The blocks in order, each freed when the next is asked for (parseJsonChunks is done with it then); once. */
  *drain(): Generator<Uint8Array> {
    const blocks = this.blocks;
    this.blocks = [];
    for (let block = blocks.shift(); block !== undefined; block = blocks.shift()) {
      yield new Uint8Array(block, 0, block.byteLength);
      block.resize(0);
    }
  }
}

/** Creates the reader of one answer's body. */
export function createStreamedBody(): StreamedBody {
  const held = new HeldBytes();
  let head: Buffer[] = [];
  let headBytes = 0;
  return {
    write(chunk) {
      if (headBytes < HEAD_BYTES) {
        const piece = Buffer.from(chunk.subarray(0, HEAD_BYTES - headBytes));
        head.push(piece);
        headBytes += piece.length;
      }
      held.add(chunk);
    },
    async end() {
      // Whatever holds this reader afterwards (a closure, a request) must not hold a page with it.
      const start = head;
      head = [];
      if (held.empty) return undefined;
      keepYoungGenerationSmall();
      try {
        return await parseJsonChunks(held.drain());
      } catch {
        // Not JSON: its start says what it is.
        return Buffer.concat(start).toString('utf8');
      }
    },
  };
}
