/**
 * Output options shared by every renderer. Data goes to `stdout` only; anything
 * for human eyes (footers, confirmations) is the caller's business on stderr.
 */

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'xlsx';

export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'xlsx'];

export type Row = Record<string, unknown>;

export interface OutputOptions {
  format: OutputFormat;
  /** Columns/fields to keep, in this order (dotted paths reach into objects). */
  fields?: string[];
  /** Ids only, one per line. */
  quiet: boolean;
  /** Colour in tables (off with NO_COLOR / --no-color). */
  color: boolean;
  stdout: NodeJS.WritableStream;
  /** Columns of the terminal stdout is on; tables fit it. Undefined when stdout is no terminal. */
  width?: number;
  /** `--wide`: tables show every column and every character (cells wrap instead of being cut). */
  wide?: boolean;
  /** CSV cells as they are: no `'` guarding a cell a spreadsheet would run as a formula (`--csv-raw`). */
  csvRaw?: boolean;
  /** `--out FILE`: where `-o xlsx` writes its workbook. */
  out?: string;
  /** Human-only warnings (stderr); none when absent. */
  warn?: (line: string) => void;
  /** `--query`: a JMESPath expression the output is passed through before it is rendered. */
  query?: string;
  /**
   * A `--fields` name no record has is an error (reads: nothing has happened yet);
   * otherwise a warning (after a write, which did happen, the run must not fail).
   */
  strictFields?: boolean;
}

/**
 * Receives rows one at a time. json, ndjson and quiet write each row as it comes,
 * so `--all` runs in constant memory; a table lays itself out on its first rows,
 * then streams; csv holds its rows to the end (in a spool file past the first
 * pages) so its header can name every field.
 */
export interface RowWriter {
  write(row: Row): Promise<void>;
  end(): Promise<void>;
}
