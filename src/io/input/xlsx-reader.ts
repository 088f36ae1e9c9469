/**
 * Records from a workbook (`--file book.xlsx`, the first sheet or `--sheet NAME`):
 * the first row names the fields, each row after it is a record. Cells keep the
 * types the workbook gives them (text, numbers, booleans, dates as ISO 8601 in
 * UTC), and each row carries its cells' text for the field types the service
 * declares (plan/field-types.ts) and for rejects written back exactly. exceljs
 * reads the file; it is loaded only when a workbook is read.
 */
import type { Readable } from 'node:stream';
import { UsageError } from '../../errors.js';
import type { BadRowHandler } from './bad-rows.js';
import type { ReadOptions, SourceItem } from './types.js';

/** Text a spreadsheet may mean as a number or a boolean (its field's type decides). */
const READS_OTHERWISE = /^(?:[+-]?\d+(?:[.,]\d+)?(?:[eE][+-]?\d+)?|true|false)$/i;

/** One cell as pla reads it: its value (absent when empty) and its text. */
interface ReadCell {
  value?: unknown;
  text: string;
  /** A cell holding an error (`#N/A`): the row cannot be read. */
  error?: string;
}

/** What exceljs gives for a cell's value, read by shape (its `CellValue` union). */
function readCell(value: unknown, shown: string): ReadCell {
  if (value === null || value === undefined || value === '') return { text: '' };
  if (typeof value === 'string') return { value, text: value };
  if (typeof value === 'number') return { value, text: String(value) };
  if (typeof value === 'boolean') return { value, text: value ? 'TRUE' : 'FALSE' };
  if (value instanceof Date) return { value: value.toISOString(), text: value.toISOString() };
  if (typeof value === 'object') {
    if ('error' in value) return { text: shown, error: String(value.error) };
    // A formula's last result, a hyperlink's text, rich text as shown.
    if ('result' in value) return readCell(value.result, shown);
    if ('text' in value && typeof value.text === 'string') return { value: value.text, text: value.text };
    return { value: shown, text: shown };
  }
  return { value: shown, text: shown };
}

/** A header cell as the field it names, as the csv reader has it: spaces dropped, `ID` is `id`. */
function headerField(cell: string): string {
  const name = cell.trim();
  return name.toLowerCase() === 'id' ? 'id' : name;
}

/** Streams the records of one sheet of a workbook (see the module comment). */
export async function* readXlsxRecords(input: Readable, options: ReadOptions, badRow: BadRowHandler): AsyncGenerator<SourceItem<Record<string, unknown>>> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    // Read whole: a workbook is a zip, whose directory is at its end.
    await workbook.xlsx.read(input);
  } catch (error) {
    throw new UsageError(`cannot read the workbook: ${(error as Error).message}`, { cause: error });
  }
  const names = workbook.worksheets.map((sheet) => sheet.name);
  const worksheet = options.sheet === undefined ? workbook.worksheets[0] : workbook.getWorksheet(options.sheet);
  if (!worksheet) {
    throw new UsageError(options.sheet === undefined ? 'the workbook has no sheet' : `the workbook has no sheet ${JSON.stringify(options.sheet)}`, {
      hint: names.length > 0 ? `its sheets: ${names.join(', ')}` : undefined,
    });
  }
  let header: string[] | undefined;
  const rows: Array<{ number: number; cells: ReadCell[] }> = [];
  worksheet.eachRow({ includeEmpty: false }, (row, number) => {
    const width = header?.length ?? row.cellCount;
    const cells: ReadCell[] = [];
    for (let column = 1; column <= width; column++) {
      const cell = row.getCell(column);
      cells.push(readCell(cell.value, cell.text));
    }
    if (!header) {
      header = cells.map((cell) => cell.text);
      // A header ends at its last named column.
      while (header.length > 0 && header[header.length - 1]?.trim() === '') header.pop();
      return;
    }
    rows.push({ number, cells });
  });
  if (!header) return;
  options.onSheetForm?.({ format: 'xlsx', header, sheet: worksheet.name });
  const fields = header.map(headerField);
  for (const { number, cells: read } of rows) {
    if (read.every((cell) => cell.text === '')) continue;
    const row = read.map((cell) => cell.text);
    const failed = read.findIndex((cell) => cell.error !== undefined);
    if (failed !== -1) {
      badRow({ line: number, message: `${fields[failed]}: the cell holds an error (${read[failed]?.error})`, raw: row.join('\t') });
      continue;
    }
    const record: Record<string, unknown> = {};
    const cells: Record<string, string> = Object.create(null) as Record<string, string>;
    fields.forEach((field, i) => {
      const cell = read[i];
      if (!cell || cell.value === undefined) return;
      record[field] = cell.value;
      if (typeof cell.value !== 'string' || READS_OTHERWISE.test(cell.text)) cells[field] = cell.text;
    });
    yield { value: record, line: number, cells, row };
  }
}
