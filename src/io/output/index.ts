/**
 * Renderers for command results. Each format's module is loaded only when chosen,
 * so JSON output never pays for cli-table3 or csv-stringify.
 */
import { UsageError } from '../../errors.js';
import { closestName } from '../../config/closest.js';
import { asRow, pickFields, unknownFields } from './fields.js';
import { createJsonWriter, createNdjsonWriter } from './json-writer.js';
import { createQuietWriter } from './quiet-writer.js';
import type { OutputOptions, Row, RowWriter } from './types.js';
import { writeOut } from './write-out.js';
import { jsonText } from '../../json/json-text.js';

export type { OutputFormat, OutputOptions, Row, RowWriter } from './types.js';

/** Rows a writer holds before it passes them on, to judge `--fields` names (as many as a table lays out on). */
const FIELD_CHECK_ROWS = 100;

/**
 * `--fields` names no row has: an error naming the nearest field (a read, where
 * nothing has happened yet), or a warning (after a write).
 */
function checkFields(options: OutputOptions, rows: readonly Row[]): void {
  const unknown = unknownFields(options.fields, rows);
  if (unknown.length === 0) return;
  const known = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const near = unknown.map((name) => closestName(name, known)).filter(Boolean);
  const what = `unknown field${unknown.length === 1 ? '' : 's'} in --fields: ${unknown.join(', ')}`;
  const hint = near.length ? `did you mean ${near.join(', ')}?` : `fields here: ${known.join(', ')}`;
  if (options.strictFields) throw new UsageError(what, { hint });
  options.warn?.(`${what} (${hint})`);
}

/** Holds the first rows, checks the `--fields` names against them, then passes everything on to `inner`. */
function fieldChecking(options: OutputOptions, inner: RowWriter): RowWriter {
  let held: Row[] | undefined = [];
  const release = async () => {
    if (!held) return;
    const rows = held;
    held = undefined;
    checkFields(options, rows);
    for (const row of rows) await inner.write(row);
  };
  return {
    async write(row) {
      if (!held) return inner.write(row);
      held.push(row);
      if (held.length >= FIELD_CHECK_ROWS) await release();
    },
    async end() {
      await release();
      await inner.end();
    },
  };
}

/** With `--query`: every row is held, the expression runs on them as one array, and its result is rendered. */
function querying(options: OutputOptions & { query: string }): RowWriter {
  const rows: Row[] = [];
  return {
    write: async (row) => void rows.push(row),
    end: async () => renderQueried(await (await import('./query.js')).runQuery(options.query, rows), options),
  };
}

/**
 * What a query gave, in the chosen format: rows for an array, a record for an
 * object, the bare value for a string or number (as `aws --query` prints text),
 * nothing for null; json prints the result exactly.
 */
async function renderQueried(result: unknown, options: OutputOptions): Promise<void> {
  const rest: OutputOptions = { ...options, query: undefined };
  if (options.format === 'json' && !options.quiet) return writeOut(options.stdout, `${jsonText(result ?? null, 2)}\n`);
  if (Array.isArray(result)) return renderRows(result, rest);
  if (result !== null && typeof result === 'object') return renderRecord(result, rest);
  if (result === null || result === undefined) return;
  return writeOut(options.stdout, `${typeof result === 'string' ? result : jsonText(result)}\n`);
}

/** A writer for a stream of rows (lists, pages, `--all`) in the chosen format. */
export async function createRowWriter(options: OutputOptions): Promise<RowWriter> {
  if (options.out !== undefined && options.format !== 'xlsx') throw new UsageError('--out goes with -o xlsx (other formats go to stdout: redirect it)');
  if (options.query) return querying({ ...options, query: options.query });
  return options.fields ? fieldChecking(options, await formatWriter(options)) : formatWriter(options);
}

async function formatWriter(options: OutputOptions): Promise<RowWriter> {
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
    case 'xlsx':
      return (await import('./xlsx-writer.js')).createXlsxWriter(options);
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
  if (options.query) return renderQueried(await (await import('./query.js')).runQuery(options.query, value), options);
  const record: Row = asRow(value);
  checkFields(options, [record]);
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
  if (options.query) return renderRecord(map, options);
  if (options.format === 'json' || options.format === 'table') return renderRecord(map, { ...options, quiet: false });
  return renderRows(
    Object.entries(map).map(([key, count]) => ({ key, count })),
    { ...options, quiet: false },
  );
}
