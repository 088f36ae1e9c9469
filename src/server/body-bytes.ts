/**
 * Reply bodies as UTF-8 bytes in stretches of a shared slab. node's own pool takes
 * bodies up to 4 KB only; a page of 20 (about 4–5 KB) would otherwise get a Buffer
 * of its own per reply, and allocating and collecting one cost more than encoding it.
 * A stretch is never written again once handed out; a slab is freed once every reply
 * in it is sent (a client that does not read holds 64 KB, not its 5 KB, until its
 * connection times out).
 */

/** Bytes of a slab. */
const SLAB_BYTES = 64 * 1024;
/** Bodies of up to this many bytes go into the slab; larger ones get a Buffer of their own. */
const SLAB_BODY_BYTES = 24 * 1024;

let slab = Buffer.allocUnsafe(0);
let slabUsed = 0;

/**
 * A body of at most `max` bytes, written by `fill(target, start, parts)` from `start`
 * on (it returns where it stopped), in a stretch of the shared slab when it is small.
 */
export function bodyBytes<T>(max: number, fill: (target: Buffer, start: number, parts: T) => number, parts: T): Buffer {
  if (max > SLAB_BODY_BYTES) {
    const own = Buffer.allocUnsafe(max);
    return own.subarray(0, fill(own, 0, parts));
  }
  if (slab.length - slabUsed < max) {
    slab = Buffer.allocUnsafe(SLAB_BYTES);
    slabUsed = 0;
  }
  const start = slabUsed;
  slabUsed = fill(slab, start, parts);
  return slab.subarray(start, slabUsed);
}

function fillText(target: Buffer, start: number, text: string): number {
  return start + target.write(text, start);
}

/** Bodies up to this many characters go into the slab; larger ones are encoded into a Buffer of their own. */
const SLAB_BODY_CHARS = 8 * 1024;

/** `text` as UTF-8 bytes. */
export function utf8(text: string): Buffer {
  if (text.length > SLAB_BODY_CHARS) return Buffer.from(text);
  // A UTF-16 code unit is at most 3 bytes of UTF-8.
  return bodyBytes(text.length * 3, fillText, text);
}
