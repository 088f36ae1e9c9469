import { createReadStream, createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stringify } from 'csv-stringify/sync';
import { csvCastFor, csvHeaderRow } from '../input/csv-cells.js';
import { fieldValue } from './fields.js';
import type { OutputOptions, Row, RowWriter } from './types.js';
import { writeOut } from './write-out.js';
import { jsonText } from '../../json/json-text.js';
import { parseJson } from '../../json/json-parse.js';

/** Rows kept in memory before the rest go to a spool file (a page or two). */
const IN_MEMORY_ROWS = 2000;

const GUARDED_CAST = csvCastFor({ guard: true });
const RAW_CAST = csvCastFor({ guard: false });

/** Rows as csv lines, typed so they read back as the same values, formulas guarded unless `csvRaw` (csv-cells). */
function csvText(rows: unknown[][], options: OutputOptions): string {
  return stringify(rows, { cast: options.csvRaw ? RAW_CAST : GUARDED_CAST });
}

/** The header line: names guarded as cells are (csv-parse reads a header cell as text). */
const headerText = (columns: readonly string[], options: OutputOptions): string => stringify([csvHeaderRow(columns, !options.csvRaw)]);

const cells = (row: Row, columns: readonly string[]): unknown[] => columns.map((c) => fieldValue(row, c));

/**
 * Rows past the first `IN_MEMORY_ROWS`, as ndjson in a temporary file, so an
 * export of any size runs in constant memory. Removed at the end, and at exit if
 * the run stops before (an error, Ctrl-C).
 */
class Spool {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pla-csv-'));
  private readonly path = join(this.dir, 'rows.ndjson');
  // Records: readable by their owner only (the folder is mkdtemp's, 0700, already).
  private readonly out: WriteStream = createWriteStream(this.path, { mode: 0o600 });
  private readonly removeAtExit = () => this.remove();

  constructor() {
    process.once('exit', this.removeAtExit);
  }

  write(row: Row): Promise<void> {
    return writeOut(this.out, `${jsonText(row)}\n`);
  }

  /** The spooled rows, in order; the file is closed first. */
  async *rows(): AsyncGenerator<Row> {
    await new Promise<void>((resolve, reject) => this.out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    for await (const line of createInterface({ input: createReadStream(this.path), crlfDelay: Infinity })) yield parseJson(line) as Row;
  }

  remove(): void {
    this.out.destroy();
    rmSync(this.dir, { recursive: true, force: true });
    process.off('exit', this.removeAtExit);
  }
}

/**
 * CSV whose header has a column for every field of every record (no field is
 * dropped, so `list --all -o csv` feeds back into `upsert --file` whole). Columns
 * are in order of first appearance. Since a csv cannot grow columns once its
 * header is out, the rows are held until the end: the first pages in memory, the
 * rest in a spool file. With `--fields` the columns are known and rows stream.
 */
export function createCsvWriter(options: OutputOptions): RowWriter {
  if (options.fields) return createFixedCsvWriter(options, options.fields);
  const columns = new Set<string>();
  const held: Row[] = [];
  let spool: Spool | undefined;
  return {
    async write(row: Row) {
      for (const key of Object.keys(row)) columns.add(key);
      if (held.length < IN_MEMORY_ROWS) held.push(row);
      else await (spool ??= new Spool()).write(row);
    },
    async end() {
      try {
        if (columns.size === 0) return;
        const header = [...columns];
        await writeOut(
          options.stdout,
          headerText(header, options) +
            csvText(
              held.map((row) => cells(row, header)),
              options,
            ),
        );
        if (spool) for await (const row of spool.rows()) await writeOut(options.stdout, csvText([cells(row, header)], options));
      } finally {
        spool?.remove();
      }
    },
  };
}

/** CSV under fixed columns, written as rows arrive; an empty result still gets its header. */
function createFixedCsvWriter(options: OutputOptions, columns: readonly string[]): RowWriter {
  let headerWritten = false;
  return {
    async write(row: Row) {
      const header = headerWritten ? '' : headerText(columns, options);
      headerWritten = true;
      await writeOut(options.stdout, header + csvText([cells(row, columns)], options));
    },
    async end() {
      if (!headerWritten) await writeOut(options.stdout, headerText(columns, options));
    },
  };
}
