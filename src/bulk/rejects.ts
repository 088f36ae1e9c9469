import { dirname, join } from 'node:path';
import { readFile, rm, truncate } from 'node:fs/promises';
import { ERROR_FIELD, LINE_FIELD, RAW_FIELD } from '../io/input/record.js';
import type { BadRow, CsvDelimiter, InputFormat, SheetForm } from '../io/input/types.js';
import { cellText, type SheetReject, SheetRejectRows } from './sheet-rejects.js';
import { jsonText } from '../json/json-text.js';
import { refuseSymlink, replacePrivateFile, writePrivateFile } from '../io/private-files.js';
import { ownField } from '../contract/own-fields.js';

/**
 * Where a run's rejects go when `--rejects` names no file: `rejects-<run>.<format>`
 * beside `beside` (the checkpoint, else the input file: where the user keeps a
 * run's files), else in the current folder. The summary names it.
 */
export function defaultRejectsPath(run: string, format: InputFormat, beside: string | undefined, folder = '.'): string {
  return join(beside ? dirname(beside) : folder, `rejects-${run}.${format}`);
}

/** One input item the service refused, with what it said. */
export interface Reject {
  value: unknown;
  error: string;
  /** The error in words shared by every item refused for the same cause (split.ts `reasonOf`), for the summary. */
  reason?: string;
  /** The input line it came from (`_line` in the rejects file). */
  line?: number;
  /** Of a sheet row: its cells' text as read, written back exactly (sheet-rejects.ts). */
  row?: readonly string[];
}

/** A rejected item as a row: the record plus `_error`; a bare id becomes `{ id, _error }`. */
function toRow(reject: Reject): Record<string, unknown> {
  const fields = typeof reject.value === 'object' && reject.value !== null ? reject.value : { id: reject.value };
  return { ...fields, ...(reject.line !== undefined ? { [LINE_FIELD]: reject.line } : {}), [ERROR_FIELD]: reject.error };
}

/**
 * Rejects as csv lines, typed as the csv reader reads them back (io/input/csv-cells),
 * formulas guarded as in csv output, cut by `delimiter` (the input's: a `;` file's
 * rejects open in the same spreadsheet as it).
 */
async function csvLines(rows: Array<Record<string, unknown>>, columns: string[], header: boolean, delimiter: CsvDelimiter): Promise<string> {
  const [{ stringify }, { csvCast, csvHeaderRow }] = await Promise.all([import('csv-stringify/sync'), import('../io/input/csv-cells.js')]);
  const headerLine = header ? stringify([csvHeaderRow(columns)], { delimiter }) : '';
  return (
    headerLine +
    stringify(
      rows.map((row) => columns.map((column) => ownField(row, column))),
      { cast: csvCast, delimiter },
    )
  );
}

/**
 * The rejects file: refused records in the input's format, each with the service's
 * error beside it (`_error` field or column), ready to fix and feed back. Nothing
 * is created until the first reject; batches are written as they finish, in turn.
 * Rows already in the file (an earlier attempt of the run, another run) are kept and added to.
 */
export class RejectsFile {
  private started = false;
  private columns: string[] | undefined;
  private chain: Promise<void> = Promise.resolve();

  /** The csv separator of an earlier run's file being added to. */
  private earlierDelimiter: CsvDelimiter | undefined;

  constructor(
    readonly path: string,
    readonly format: InputFormat,
    /** What the file is, for messages: `rejects file`, `unknown-outcome file`. */
    readonly what = 'rejects file',
    /** The input's csv separator once known (asked at each write: the input is read after the file is made). */
    private readonly inputDelimiter: () => CsvDelimiter | undefined = () => undefined,
    /** The input's sheet form once known: a csv's or a workbook's rejects are written in it. */
    private readonly sheetForm: () => SheetForm | undefined = () => undefined,
  ) {}

  /** Rows laid out in the input's sheet form, once its form is known (and this file is a sheet too). */
  private sheetRows: SheetRejectRows | undefined;
  /** A workbook's rows so far: written whole when the file closes. */
  private workbookRows: string[][] | undefined;

  private sheetLayout(): SheetRejectRows | undefined {
    if (this.sheetRows || (this.format !== 'csv' && this.format !== 'xlsx')) return this.sheetRows;
    const form = this.sheetForm();
    if (form) this.sheetRows = new SheetRejectRows(form);
    return this.sheetRows;
  }

  /** The separator csv rows are written with: the earlier file's, else the input's, else a comma. */
  private get delimiter(): CsvDelimiter {
    return this.earlierDelimiter ?? this.inputDelimiter() ?? ',';
  }

  /**
   * Continues the file where it is (never a link): rows already there, of an
   * earlier attempt of the run or of another run, are kept and added to, never
   * deleted or replaced. Resolves to whether it held rows.
   */
  async open(): Promise<boolean> {
    refuseSymlink(this.path, this.what);
    if (this.format === 'xlsx') return this.reopenWorkbook();
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      return false;
    }
    if (text.trim() === '') return false;
    this.started = true;
    if (this.format === 'json') {
      // Reopen the array: cut its closing bracket so elements can be appended.
      const body = text.trimEnd().replace(/\]$/, '').trimEnd();
      await truncate(this.path, Buffer.byteLength(body));
      this.started = !body.endsWith('[');
      if (!this.started) await rm(this.path, { force: true });
      return this.started;
    } else if (this.format === 'csv') {
      const [{ parse }, { unguardFormula }, { chooseDelimiter, firstLine }] = await Promise.all([
        import('csv-parse/sync'),
        import('../io/input/csv-cells.js'),
        import('../io/input/csv-delimiter.js'),
      ]);
      const header = firstLine(text.replace(/^\uFEFF/, ''));
      this.earlierDelimiter = chooseDelimiter(header);
      this.columns = (parse(header, { bom: true, delimiter: this.earlierDelimiter }) as string[][])[0]?.map(unguardFormula);
    }
    return true;
  }

  /** Takes an earlier run's workbook of rejects back in, to be written again with this run's added; whether it held rows. */
  private async reopenWorkbook(): Promise<boolean> {
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.readFile(this.path);
    } catch {
      return false;
    }
    const rows: string[][] = [];
    workbook.worksheets[0]?.eachRow((row) => rows.push(Array.from({ length: row.cellCount }, (_, i) => row.getCell(i + 1).text)));
    const [header, ...earlier] = rows;
    if (!header) return false;
    this.started = true;
    this.columns = header;
    this.workbookRows = earlier;
    return true;
  }

  /**
   * Appends an input row that could not be read: its line, its text as read
   * (`_raw`) and why (`_error`), to be fixed in place and fed back.
   */
  writeUnreadable(row: BadRow): Promise<void> {
    const raw = row.raw.replace(/(?:\r\n|\r|\n)$/, '');
    this.chain = this.chain.then(() =>
      this.sheetLayout()
        ? this.appendSheet([{ line: row.line, raw, error: row.message }])
        : this.append([{ [LINE_FIELD]: row.line, [RAW_FIELD]: raw, [ERROR_FIELD]: row.message }]),
    );
    return this.chain;
  }

  write(rejects: Reject[]): Promise<void> {
    if (rejects.length === 0) return this.chain;
    this.chain = this.chain.then(() => (this.sheetLayout() ? this.appendSheet(rejects) : this.append(rejects.map(toRow))));
    return this.chain;
  }

  /** Adds rows in the input's sheet form: a csv with a UTF-8 byte order mark (Excel reads it as UTF-8), or a workbook's rows. */
  private async appendSheet(rejects: SheetReject[]): Promise<void> {
    const layout = this.sheetLayout() as SheetRejectRows;
    const rows = rejects.map((reject) => layout.cells(reject));
    const first = !this.started;
    this.started = true;
    if (this.format === 'xlsx') {
      (this.workbookRows ??= []).push(...rows);
      return;
    }
    const { stringify } = await import('csv-stringify/sync');
    const delimiter = layout.form.format === 'csv' ? layout.form.delimiter : this.delimiter;
    const lines = { delimiter, record_delimiter: layout.form.format === 'csv' && layout.form.crlf ? ('windows' as const) : ('unix' as const) };
    if (first) {
      this.columns = layout.header;
      this.earlierDelimiter = delimiter;
      return this.writeText(`\uFEFF${stringify([layout.header, ...rows], lines)}`, false);
    }
    return this.writeText(stringify(rows, lines), true);
  }

  /** Finishes the file (closes the json array); resolves once everything is written. */
  async close(): Promise<void> {
    await this.chain;
    if (this.format === 'json' && this.started) await this.writeText('\n]\n', true);
    if (this.format === 'xlsx' && this.workbookRows) {
      const { writeWorkbook } = await import('../io/output/xlsx-workbook.js');
      const form = this.sheetForm();
      const header = this.sheetRows?.header ?? this.columns ?? [];
      await writeWorkbook(this.path, form?.format === 'xlsx' ? form.sheet : 'rejects', header, this.workbookRows, this.what);
    }
  }

  /** Whether the file holds any rejects (from this run or a resumed one). */
  get written(): boolean {
    return this.started;
  }

  /**
   * Rewrites the csv rejects so far under a wider header (temporary file, then
   * rename). Cells are read back as the input reader types them, so a number
   * stays a number, a quoted "007" stays text and a nested object an object.
   */
  private async widenCsv(columns: string[]): Promise<void> {
    const [{ parse }, { typeCell, unguardFormula }] = await Promise.all([import('csv-parse/sync'), import('../io/input/csv-cells.js')]);
    const earlier = parse(await readFile(this.path, 'utf8'), {
      bom: true,
      delimiter: this.delimiter,
      columns: (names: string[]) => names.map(unguardFormula),
      cast: (value, context) => (context.header ? value : typeCell(value, context.quoting)),
    }) as Array<Record<string, unknown>>;
    this.columns = columns;
    await replacePrivateFile(this.path, await csvLines(earlier, columns, true, this.delimiter), { what: this.what });
  }

  /** Writes or adds to the file: 0600 (refused records are finance data), never through a link. */
  private writeText(text: string, append: boolean): Promise<void> {
    return writePrivateFile(this.path, text, { what: this.what, append });
  }

  private async append(rows: Array<Record<string, unknown>>): Promise<void> {
    const first = !this.started;
    this.started = true;
    switch (this.format) {
      case 'ndjson':
        return this.writeText(rows.map((row) => `${jsonText(row)}\n`).join(''), true);
      case 'json': {
        const elements = rows.map((row) => `  ${jsonText(row)}`).join(',\n');
        return first ? this.writeText(`[\n${elements}`, false) : this.writeText(`,\n${elements}`, true);
      }
      case 'xlsx': {
        // Records without a sheet form (a json run's rejects named .xlsx): their fields are the columns.
        const columns = (this.columns ??= []);
        for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
        (this.workbookRows ??= []).push(...rows.map((row) => columns.map((column) => cellText(row[column]))));
        return;
      }
      case 'csv': {
        const names = new Set<string>();
        for (const row of rows) for (const key of Object.keys(row)) if (key !== ERROR_FIELD && key !== LINE_FIELD) names.add(key);
        if (!this.columns) {
          this.columns = [...names, LINE_FIELD, ERROR_FIELD];
          return this.writeText(await csvLines(rows, this.columns, true, this.delimiter), false);
        }
        // A later record may carry a field the first rejects had not (json or ndjson
        // records differ in their fields): widen the header rather than drop the
        // field, or feeding the rejects back would lose data.
        const known = this.columns;
        const added = [...names].filter((name) => !known.includes(name));
        if (added.length > 0) await this.widenCsv([...known.filter((c) => c !== ERROR_FIELD && c !== LINE_FIELD), ...added, LINE_FIELD, ERROR_FIELD]);
        return this.writeText(await csvLines(rows, this.columns, false, this.delimiter), true);
      }
    }
  }
}
