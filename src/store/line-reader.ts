import { createReadStream, readSync } from 'node:fs';

/** One line of a file, without its newline. */
export interface Line {
  text: string;
  /** 1-based. */
  number: number;
  /** Byte offset just past the line's newline (or past its last byte when unterminated). */
  end: number;
  /** False for a last line with no newline after it. */
  terminated: boolean;
}

const NEWLINE = 0x0a;

/**
 * Calls `onLine` for each line of a file, reading it in large chunks so that a
 * million-line file costs one pass and no giant string. Lines are split on the byte
 * 0x0A, which never occurs inside a multi-byte UTF-8 character.
 */
export async function forEachLine(path: string, onLine: (line: Line) => void): Promise<void> {
  let carry: Buffer | undefined;
  let offset = 0;
  let number = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const buffer = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    let newline = buffer.indexOf(NEWLINE, start);
    while (newline !== -1) {
      offset += newline + 1 - start;
      onLine({ text: buffer.toString('utf8', start, newline), number: ++number, end: offset, terminated: true });
      start = newline + 1;
      newline = buffer.indexOf(NEWLINE, start);
    }
    carry = start < buffer.length ? buffer.subarray(start) : undefined;
  }
  if (carry !== undefined) {
    offset += carry.length;
    onLine({ text: carry.toString('utf8'), number: number + 1, end: offset, terminated: false });
  }
}

/** What `forEachLineChunk` reads at once (more when a line is longer). */
const CHUNK_BYTES = 8 << 20;

/**
 * Calls `onChunk(bytes, offset)` for the first `end` bytes of an open file, in order,
 * a chunk of whole lines at a time (each chunk but the last ends just after a newline;
 * the last ends where the file does). `bytes` is reused for the next chunk: keep none
 * of it. The reads are synchronous: this runs while the store opens, before anything
 * else waits on the event loop, and a trip through the thread pool per chunk cost more
 * wall time than the read on a busy machine.
 */
export function forEachLineChunk(fd: number, end: number, onChunk: (bytes: Buffer, offset: number) => void): void {
  let buffer = Buffer.allocUnsafe(Math.min(end, CHUNK_BYTES) || 1);
  let filled = 0;
  let offset = 0;
  for (let position = 0; position < end;) {
    if (filled === buffer.length) {
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, filled);
      buffer = larger;
    }
    const bytesRead = readSync(fd, buffer, filled, Math.min(buffer.length - filled, end - position), position);
    if (bytesRead === 0) throw new Error('the file is shorter than its size');
    filled += bytesRead;
    position += bytesRead;
    const cut = position === end ? filled : buffer.lastIndexOf(NEWLINE, filled - 1) + 1;
    if (cut === 0) continue;
    onChunk(buffer.subarray(0, cut), offset);
    buffer.copy(buffer, 0, cut, filled);
    filled -= cut;
    offset += cut;
  }
}
