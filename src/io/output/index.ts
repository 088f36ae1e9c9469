/**
 * Renderers for command results. Each format's module is loaded only when chosen,
 * so JSON output never pays for cli-table3 or csv-stringify.
 */
import { asRow, pickFields } from './fields.js';
import { createJsonWriter, createNdjsonWriter } from './json-writer.js';
import { createQuietWriter } from './quiet-writer.js';
import type { OutputOptions, Row, RowWriter } from './types.js';
import { writeOut } from './write-out.js';
import { jsonText } from '../../json/json-text.js';

export type { OutputFormat, OutputOptions, Row, RowWriter } from './types.js';

/** A writer for a stream of rows (lists, pages, `--all`) in the chosen format. */
export async function createRowWriter(options: OutputOptions): Promise<RowWriter> {
  if (options.quiet) return createQuietWriter(options);
  switch (options.format) {
    case 'json':
      return createJsonWriter(options);
    case 'ndjson':
      return createNdjsonWriter(options);
    case 'csv':
      return (await import('./csv-writer.js')).createCsvWriter(options);
    case 'table':
      return (await import('./table-writer.js')).createTableWriter(options);
  }
}

/** Renders a list of values as rows. */
export async function renderRows(values: readonly unknown[], options: OutputOptions): Promise<void> {
  const writer = await createRowWriter(options);
  for (const value of values) await writer.write(asRow(value));
  await writer.end();
}

/**
 * Renders one record (or a count map, or a metadata object): a JSON object rather
 * than an array, a key/value grid as a table, a one-row csv.
 */
export async function renderRecord(value: unknown, options: OutputOptions): Promise<void> {
  const record: Row = asRow(value);
  if (options.quiet) return createQuietWriter(options).write(record);
  switch (options.format) {
    case 'json':
      return writeOut(options.stdout, `${jsonText(pickFields(record, options.fields), 2)}\n`);
    case 'table':
      return (await import('./table-writer.js')).writeKeyValueTable(record, options);
    default:
      return renderRows([record], options);
  }
}

/**
 * Renders a count map (`{"unread": 3}`): an object in json, a key/value grid as a
 * table, and `key,count` rows in csv and ndjson.
 */
export async function renderCountMap(map: Record<string, unknown>, options: OutputOptions): Promise<void> {
  if (options.format === 'json' || options.format === 'table') return renderRecord(map, { ...options, quiet: false });
  return renderRows(
    Object.entries(map).map(([key, count]) => ({ key, count })),
    { ...options, quiet: false },
  );
}
