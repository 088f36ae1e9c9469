/**
 * Streaming readers for record and id input (`--data`, `--file F`, `--file -`,
 * `--ids`, `--ids-file`). Readers yield one item at a time so memory does not
 * grow with file size, and every item carries the 1-based line it came from.
 */

import type { Readable } from 'node:stream';

/** The formats record and id input comes in. */
export const INPUT_FORMATS = ['json', 'ndjson', 'csv', 'xlsx'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** What separates csv cells: a comma, a semicolon (European spreadsheets) or a tab. */
export type CsvDelimiter = ',' | ';' | '\t';

export interface SourceItem<T = unknown> {
  value: T;
  /** 1-based line of the input where the item starts (a workbook's row number). */
  line: number;
  /**
   * Of a sheet row (csv, workbook): the text as written of each cell read as a
   * number or a boolean, so the field's declared type decides it (`1000` stays the
   * text "1000" where the service declares a string; plan/field-types.ts). Present,
   * perhaps empty, on every sheet row: it marks the row as one whose types are guesses.
   */
  cells?: Record<string, string>;
  /** Of a sheet row: every cell's text as read, in the input's column order (its rejects hold it exactly). */
  row?: string[];
}

/**
 * The form of a sheet input, so that its rejects are written in it: the header as
 * written (names and order), and for a csv its separator, byte order mark and line ends.
 */
export type SheetForm =
  { format: 'csv'; header: string[]; delimiter: CsvDelimiter; bom: boolean; crlf: boolean } | { format: 'xlsx'; header: string[]; sheet: string };

export interface BadRow {
  line: number;
  message: string;
  /** The row's text as read, for the rejects file. */
  raw: string;
  /**
   * Set when the row was read but is refused before anything is sent (an id that
   * is no id, a duplicate id with other values): the record, for the rejects file
   * to hold as a record to fix and feed back.
   */
  record?: Record<string, unknown>;
  /** Of a sheet row: every cell's text as read, in column order (see `SourceItem.row`). */
  row?: string[];
}

export interface ReadOptions {
  /** Format; by default from the file extension, else sniffed (`[` json, `{` ndjson). */
  format?: InputFormat;
  /** CSV: keep every cell a string instead of typing numbers, booleans and empty cells. */
  raw?: boolean;
  /** CSV: the cell separator (`--delimiter`); detected from the header line when absent. */
  delimiter?: CsvDelimiter;
  /** CSV: told the separator the file is read with (detected or `--delimiter`). */
  onCsvDelimiter?: (delimiter: CsvDelimiter) => void;
  /** Sheets (csv, xlsx): told the input's form once its header is read (rejects are written in it). */
  onSheetForm?: (form: SheetForm) => void;
  /** Workbooks: the sheet to read (`--sheet`), else the first. */
  sheet?: string;
  /** CSV: cells as they are, a leading `'` before `=`, `+`, `-`, `@` kept (`--csv-raw`; src/io/input/csv-cells.ts). */
  csvRaw?: boolean;
  /** Stop at the first bad row (throw `InputError` with its line) instead of skipping it. */
  strict?: boolean;
  /** Called for each skipped bad row when not strict. */
  onBadRow?: (row: BadRow) => void;
  /**
   * Records name their ids by the one id rule (updates, upserts): `"42"` is 42,
   * an empty cell none, `abc` refuses the row; duplicate ids are decided first.
   */
  recordIds?: boolean;
  /** Told of each row that repeats an earlier one exactly (sent once, as the first). */
  onRepeat?: (repeat: RepeatedRow) => void;
  /** What `--file -` reads: the run's stdin (from its IO object). */
  stdin?: Readable;
}

export interface IdReadOptions extends ReadOptions {
  /** Column / field holding the id in json, ndjson or csv input (default `id`). */
  idField?: string;
}

/** A row that repeats an earlier row exactly (same id, same values): sent once, as the first. */
export interface RepeatedRow {
  line: number;
  /** The line of the row it repeats. */
  of: number;
  id: string;
}
