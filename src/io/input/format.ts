import { extname } from 'node:path';
import type { InputFormat } from './types.js';

const BY_EXTENSION: Record<string, InputFormat> = {
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
  '.xlsx': 'xlsx',
};

/** The format a file's extension names, if it names one. */
export function formatFromPath(path: string): InputFormat | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

/**
 * Guesses the format from the first bytes: `[` is a json array; `{` is ndjson when
 * the first line is a whole JSON value on its own, else a (pretty-printed) json
 * object; anything else is csv with a header row.
 */
export function sniffFormat(head: string): InputFormat {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('[')) return 'json';
  if (text.startsWith('{')) {
    const firstLine = text.split('\n', 1)[0] ?? '';
    try {
      JSON.parse(firstLine);
      return 'ndjson';
    } catch {
      return 'json';
    }
  }
  return 'csv';
}
