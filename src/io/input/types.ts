/**
 * Streaming readers for record and id input (`--data`, `--file F`, `--file -`,
 * `--ids`, `--ids-file`). Readers yield one item at a time so memory does not
 * grow with file size, and every item carries the 1-based line it came from.
 */

import type { Readable } from 'node:stream';

/** The formats record and id input comes in. */
export const INPUT_FORMATS = ['json', 'ndjson', 'csv'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export interface SourceItem<T = unknown> {
  value: T;
  /** 1-based line of the input where the item starts. */
  line: number;
}

export interface BadRow {
  line: number;
  message: string;
  /** The row's text as read, for the rejects file. */
  raw: string;
}

export interface ReadOptions {
  /** Format; by default from the file extension, else sniffed (`[` json, `{` ndjson). */
  format?: InputFormat;
  /** CSV: keep every cell a string instead of typing numbers, booleans and empty cells. */
  raw?: boolean;
  /** CSV: cells as they are, a leading `'` before `=`, `+`, `-`, `@` kept (`--csv-raw`; src/io/input/csv-cells.ts). */
  csvRaw?: boolean;
  /** Stop at the first bad row (throw `InputError` with its line) instead of skipping it. */
  strict?: boolean;
  /** Called for each skipped bad row when not strict. */
  onBadRow?: (row: BadRow) => void;
  /** What `--file -` reads: the run's stdin (from its IO object). */
  stdin?: Readable;
}

export interface IdReadOptions extends ReadOptions {
  /** Column / field holding the id in json, ndjson or csv input (default `id`). */
  idField?: string;
}
