/**
 * Output options shared by every renderer. Data goes to `stdout` only; anything
 * for human eyes (footers, confirmations) is the caller's business on stderr.
 */

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';

export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv'];

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
  /** Human-only warnings (stderr); none when absent. */
  warn?: (line: string) => void;
}

/**
 * Receives rows one at a time. Streaming formats (json, ndjson, csv, quiet) write
 * each row as it comes, so `--all` runs in constant memory; a table needs every
 * row for its column widths and draws at `end()`.
 */
export interface RowWriter {
  write(row: Row): Promise<void>;
  end(): Promise<void>;
}
