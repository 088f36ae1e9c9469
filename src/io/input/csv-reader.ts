import { Readable } from 'node:stream';
import { CsvError, parse, type Parser } from 'csv-parse';
import { InputError } from '../../errors.js';
import type { BadRowHandler } from './bad-rows.js';
import { typeCells, unguardFormula } from './csv-cells.js';
import { chooseDelimiter, firstLine } from './csv-delimiter.js';
import { LINE_END, RECORD_DELIMITERS, lineBreaks, leadingLineBreaks, withoutFirstLine } from './line-breaks.js';
import { parse as parseStrict } from 'csv-parse/sync';
import { peek } from './source.js';
import type { CsvDelimiter, SourceItem } from './types.js';
import { setField } from '../../contract/own-fields.js';

/** Cell text a spreadsheet may mean as a number or a boolean. */
const READS_OTHERWISE = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false)$/i;

/** What csv-parse yields for each row with `raw`: its cells and its text as read. */
interface RawRecord {
  record: string[];
  raw: string;
}

/** One csv row as the reader hands it on: its cells and raw text. */
interface CsvRow {
  cells: string[];
  raw: string;
  line: number;
}

export interface CsvReadOptions {
  raw?: boolean;
  /** `--csv-raw`: no formula guard to remove (csv-cells.ts). */
  csvRaw?: boolean;
  strict?: boolean;
  /** `--delimiter`: else detected from the header line. */
  delimiter?: CsvDelimiter;
  /** Told the separator the file is read with (rejects of a `;` file are written with `;`). */
  onCsvDelimiter?: (delimiter: CsvDelimiter) => void;
}

/**
 * Where each row starts, counted from the raw text csv-parse hands with it (its own
 * `info.lines` counts a CRLF inside a quoted cell twice): CRLF, CR and LF each end
 * one line, blank lines skipped before a row are in its raw text, and a quoted cell
 * spanning lines moves the next row down by as many.
 */
class LineCounter {
  /** Lines consumed so far (the header included). */
  consumed = 0;

  /** The line a row of `raw` starts on, and counts its lines as consumed. */
  take(raw: string): number {
    const start = this.consumed + leadingLineBreaks(raw) + 1;
    this.consumed += lineBreaks(raw);
    // A last row without a line break still took its line.
    const last = raw.charCodeAt(raw.length - 1);
    if (last !== 10 && last !== 13 && raw.trim() !== '') this.consumed = Math.max(this.consumed, start);
    return start;
  }
}

/** Settings shared by every parse of one file: the separator, where bad rows go, and the header's cell count once read. */
interface ParseContext {
  delimiter: CsvDelimiter;
  badRow: BadRowHandler;
  columns?: number;
}

/**
 * Whether a row over several lines is one row as written: a quoted cell over
 * lines is accepted only if a strict parse of the row's text (quotes only around
 * whole cells, closed before a separator or the row's end) gives one row of the
 * header's cells, and it does not look swallowed (`swallowsRows`). Otherwise a
 * quote went astray (`stray",x` closing what `"a` opened lines before): the
 * first line is the bad row and the lines after it are read again as rows.
 * The limit: a stray quote that closes at a cell's end and leaves the header's
 * cell count is a proper csv cell over lines, and is read as one.
 */
function oneRow(row: CsvRow, context: ParseContext): boolean {
  const text = row.raw.replace(/^[\r\n]+/, '').replace(/(?:\r\r\n|\r\n|\r|\n)$/, '');
  if (context.columns === undefined || lineBreaks(text) === 0) return true;
  let rows: string[][];
  try {
    rows = parseStrict(text, { delimiter: context.delimiter, record_delimiter: RECORD_DELIMITERS, relax_column_count: true }) as string[][];
  } catch {
    return false;
  }
  return rows.length === 1 && rows[0]?.length === context.columns && !swallowsRows(row, context);
}

/**
 * A cell csv-parse kept its opening quote in, over several lines: a quote opened
 * and "closed" by a stray quote lines later (`"never closed … fi"ve`), which
 * `relax_quotes` reads as one cell holding the rows between.
 */
function swallowsRows(row: CsvRow, context: ParseContext): boolean {
  if (!row.raw.includes('"')) return false;
  const { delimiter } = context;
  const raw = row.raw.replace(/^[\r\n]+/, '');
  // Kept verbatim from a cell's start: a properly quoted cell starting with a quote is written `""…` instead.
  if (row.cells.some((cell) => cell.startsWith('"') && /[\r\n]/.test(cell) && (raw.startsWith(cell) || raw.includes(`${delimiter}${cell}`)))) return true;
  return readsAsRows(row.cells[row.cells.length - 1] ?? '', context);
}

/**
 * The row's last cell, quoted over several lines, whose every line after its first
 * reads as a whole row (the header's cells): a stray quote at a line's end "closed"
 * what a quote lines earlier opened (`"Trf open⏎4,B,c⏎5,D,stray"⏎`), which
 * csv-parse reads as a proper quoted cell. A quoted cell with cells after it is
 * closed mid-line, so meant.
 */
function readsAsRows(lastCell: string, context: ParseContext): boolean {
  const { columns, delimiter } = context;
  if (columns === undefined || columns < 2 || !/[\r\n]/.test(lastCell) || lastCell.includes('"')) return false;
  return lastCell
    .split(new RegExp(LINE_END.source))
    .slice(1)
    .every((line) => line.split(delimiter).length === columns);
}

/** A row csv-parse skipped (a quote never closed), noted with how many records came before it. */
interface Skip {
  after: number;
  error: CsvError | undefined;
  raw: string;
}

/**
 * The rows of `source`, each with the line it starts on. A quote that never closes,
 * or closes only lines later on a stray quote, would swallow the rows after it:
 * its own line is the bad row, and the rest is read again from the next line.
 *
 * Lines are counted here, as rows arrive in order, not in csv-parse's `on_record`
 * (which copies its whole state for every record and doubles the cost of a parse);
 * rows it skips are noted with how many records came before them and counted in
 * their turn.
 */
async function* parseRows(source: Readable, lines: LineCounter, context: ParseContext): AsyncGenerator<CsvRow> {
  const { delimiter, badRow } = context;
  const skips: Skip[] = [];
  const parser: Parser = source.pipe(
    parse({
      bom: true,
      delimiter,
      raw: true,
      relax_quotes: true,
      relax_column_count: true,
      // One file may mix them (rows pasted from another system): each ends a row, CRLF first so it is one end.
      record_delimiter: RECORD_DELIMITERS,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error, raw) => {
        skips.push({ after: parser.info.records, error, raw: raw ?? '' });
        return undefined;
      },
    }),
  );
  source.on('error', (error) => parser.destroy(error));
  // What an unclosed quote swallowed, read again from the line after its own.
  let rest: string | undefined;
  const skipped = (skip: Skip) => {
    const text = skip.raw;
    const line = lines.consumed + leadingLineBreaks(text) + 1;
    if (skip.error?.code === 'CSV_QUOTE_NOT_CLOSED' && withoutFirstLine(text).trim() !== '') {
      lines.consumed = line;
      rest = withoutFirstLine(text);
      badRow({ line, message: UNCLOSED, raw: firstLine(text.replace(/^[\r\n]+/, '')) });
    } else {
      lines.take(text);
      // A quote never closed before the file ends: said as it is said of the others.
      const message = skip.error?.code === 'CSV_QUOTE_NOT_CLOSED' ? UNCLOSED : (skip.error?.message.replace(/ at line \d+.*$/, '') ?? 'unreadable row');
      badRow({ line, message, raw: text.replace(/^[\r\n]+/, '') });
    }
  };
  try {
    let records = 0;
    for await (const { record, raw } of parser as AsyncIterable<RawRecord>) {
      while (skips.length > 0 && (skips[0] as Skip).after <= records) skipped(skips.shift() as Skip);
      records += 1;
      const row: CsvRow = { cells: record, raw, line: lines.take(raw) };
      if (!oneRow(row, context)) {
        badRow({ line: row.line, message: UNCLOSED, raw: firstLine(row.raw.replace(/^[\r\n]+/, '')) });
        const again = new LineCounter();
        again.consumed = row.line;
        yield* parseRows(Readable.from([withoutFirstLine(row.raw)]), again, context);
        continue;
      }
      yield row;
    }
    for (const skip of skips.splice(0)) skipped(skip);
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (error instanceof CsvError) throw new InputError(`bad csv (${error.message})`, lines.consumed + 1, { cause: error });
    throw error;
  } finally {
    parser.destroy();
  }
  if (rest !== undefined) yield* parseRows(Readable.from([rest]), lines, context);
}

const UNCLOSED = 'a quote opened on this line is never closed';

/**
 * A header cell as the field it names: spaces around it dropped (a spreadsheet's
 * `name ` is the field `name`), and `ID`, `Id` named `id`, the field every id rule reads.
 */
function headerField(cell: string): string {
  const name = cell.trim();
  return name.toLowerCase() === 'id' ? 'id' : name;
}

/**
 * Streams csv records as spreadsheets write them: the header row names the fields;
 * `,` `;` or tab separates them (detected from the header, or `--delimiter`); a
 * quote inside an unquoted cell is text (`relax_quotes`); cells are typed
 * (`typeCells`) unless `raw`; a formula guard (`'=…`, csv-cells.ts) is removed
 * from cells and header names unless `csvRaw`. A row with another number of cells than the header,
 * or one whose quote never closes, is a bad row with its line; an unclosed quote
 * does not swallow the rows after it (see `parseRows`).
 */
export async function* readCsvRecords(input: Readable, options: CsvReadOptions, badRow: BadRowHandler): AsyncGenerator<SourceItem<Record<string, unknown>>> {
  const peeked = await peek(input);
  const delimiter = chooseDelimiter(firstLine(peeked.head.replace(/^\uFEFF/, '')), options.delimiter);
  options.onCsvDelimiter?.(delimiter);
  const guarded = options.csvRaw !== true;
  let header: string[] | undefined;
  const context: ParseContext = { delimiter, badRow };
  for await (const row of parseRows(peeked.stream, new LineCounter(), context)) {
    if (!header) {
      header = (guarded ? row.cells.map(unguardFormula) : row.cells).map(headerField);
      context.columns = header.length;
      continue;
    }
    // A spreadsheet's empty rows (`;;`, Excel's trailing ones) are blank lines: nothing to send.
    if (row.cells.every((cell) => cell === '')) continue;
    if (row.cells.length !== header.length) {
      badRow({ line: row.line, message: `expected ${header.length} cells (the header's), got ${row.cells.length}`, raw: row.raw.replace(/^[\r\n]+/, '') });
      continue;
    }
    let values: unknown[];
    try {
      values = options.raw ? (guarded ? row.cells.map(unguardFormula) : row.cells) : typeCells(row.cells, row.raw, delimiter, guarded);
    } catch (error) {
      // A cell pla refuses (a number no exact value fits, 1e400) is refused with its row's line.
      if (error instanceof InputError && error.line === undefined) throw new InputError(error.message, row.line, { cause: error });
      throw error;
    }
    const record: Record<string, unknown> = {};
    // The text of cells that read as numbers or booleans, or could (`007`, a quoted
    // "123"): a stored record's types decide them in a plan (plan/stored-types.ts).
    let cells: Record<string, string> | undefined;
    for (let i = 0; i < header.length; i++) {
      const name = header[i] as string;
      const value = values[i];
      if (value === undefined) continue;
      // A header is a field name like any other (`__proto__` included): set as the record's own.
      setField(record, name, value);
      if (typeof value === 'number' || typeof value === 'boolean' || READS_OTHERWISE.test(row.cells[i] as string))
        setField((cells ??= {}), name, row.cells[i] as string);
    }
    yield cells ? { value: record, line: row.line, cells } : { value: record, line: row.line };
  }
}
