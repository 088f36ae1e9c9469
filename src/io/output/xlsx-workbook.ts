/**
 * Workbooks (.xlsx) written by pla: `-o xlsx --out FILE` and the rejects of a
 * workbook run. exceljs does the format; it is loaded only here, by `import()`,
 * when a workbook is written, so no other command pays for it.
 *
 * Id columns are text cells, as are numbers a double cannot hold: a spreadsheet
 * shows a long number in exponent form and keeps 15 digits, which would make
 * `1234567890123456789` into `1.23457E+18` and lose the id.
 */
import { writePrivateFile } from '../private-files.js';

/** A cell's value: text, a number, a boolean, or empty. */
export type WorkbookCell = string | number | boolean | null;

/** A column holding ids: `id`, `companyId`, `sourceID` … */
export function isIdColumn(name: string): boolean {
  return /^id$|Id$|ID$|_id$/.test(name.trim());
}

/** One sheet's header and rows as the bytes of an .xlsx file. */
export async function workbookBytes(sheet: string, header: readonly string[], rows: ReadonlyArray<readonly WorkbookCell[]>): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const worksheet = workbook.addWorksheet(sheet.slice(0, 31) || 'Sheet1');
  worksheet.addRow([...header]);
  for (const row of rows) worksheet.addRow([...row]);
  // Text cells show as typed: `@` keeps a spreadsheet from reading them as numbers when edited.
  header.forEach((_, i) => {
    const column = worksheet.getColumn(i + 1);
    if (rows.some((row) => typeof row[i] === 'string')) column.numFmt = '@';
  });
  const bytes = await workbook.xlsx.writeBuffer();
  return Buffer.from(bytes);
}

/** Writes one sheet to `path` (0600: finance data). */
export async function writeWorkbook(
  path: string,
  sheet: string,
  header: readonly string[],
  rows: ReadonlyArray<readonly WorkbookCell[]>,
  what: string,
): Promise<void> {
  await writePrivateFile(path, await workbookBytes(sheet, header, rows), { what });
}
