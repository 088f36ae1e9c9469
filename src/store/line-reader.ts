import { createReadStream } from 'node:fs';

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
