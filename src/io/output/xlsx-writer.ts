/**
 * `-o xlsx --out FILE`: rows as one sheet of a workbook, for a finance admin to
 * edit in Excel and feed back with `--file FILE`. Id columns (and numbers a double
 * cannot hold) are text cells, never rounded or shown in exponent form; numbers
 * and booleans are typed cells; nested values are JSON text. Rows are held until
 * the end (a sheet holds at most 1,048,576 rows anyway), then written at once.
 */
import { UsageError } from '../../errors.js';
import { isJsonNumber } from '../../json/exact-number.js';
import { cellText } from '../../bulk/sheet-rejects.js';
import { fieldValue } from './fields.js';
import type { OutputOptions, Row, RowWriter } from './types.js';
import { isIdColumn, type WorkbookCell, writeWorkbook } from './xlsx-workbook.js';

/** A value as a workbook cell (see the module comment). */
function workbookCell(value: unknown, idColumn: boolean): WorkbookCell {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && !idColumn && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return value;
  if (isJsonNumber(value) || typeof value === 'number') return cellText(value);
  return typeof value === 'string' ? value : cellText(value);
}

export function createXlsxWriter(options: OutputOptions): RowWriter {
  const out = options.out;
  if (out === undefined) throw new UsageError('-o xlsx writes a workbook: name its file with --out FILE');
  const rows: Row[] = [];
  return {
    write: async (row) => void rows.push(row),
    async end() {
      const columns = options.fields ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
      const idColumns = columns.map(isIdColumn);
      const cells = rows.map((row) => columns.map((column, i) => workbookCell(fieldValue(row, column), idColumns[i] === true)));
      await writeWorkbook(out, 'records', columns, cells, 'workbook');
      options.warn?.(`wrote ${rows.length} row(s) to ${out}`);
    },
  };
}
