import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { formatFromPath } from './format.js';
import type { InputFormat } from './types.js';

const NEWLINE = 0x0a;

/**
 * About how many records a file holds, for the progress bar's total and ETA: one
 * a line for ndjson, one a line less the header for csv. Counting newlines reads
 * the file once more at disk speed (~100 MB/s or better) without parsing, so it is
 * done only when a bar is shown. A quoted newline inside a csv cell or a blank
 * line makes it an overestimate; the bar stops at 100%.
 *
 * Undefined for stdin (it cannot be read twice), for json (counting elements needs
 * a parse) and for anything that is not a regular file.
 */
export async function estimateRecordCount(file: string, format?: InputFormat): Promise<number | undefined> {
  if (file === '-') return undefined;
  const kind = format ?? formatFromPath(file);
  if (kind !== 'ndjson' && kind !== 'csv') return undefined;
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile() || info.size === 0) return undefined;

  let lines = 0;
  let last = NEWLINE;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) lines += 1;
    last = chunk[chunk.length - 1] ?? last;
  }
  if (last !== NEWLINE) lines += 1;
  return Math.max(kind === 'csv' ? lines - 1 : lines, 0);
}
