import { stringify } from 'csv-stringify/sync';
import { cellText, fieldValue } from './fields.js';
import type { OutputOptions, Row, RowWriter } from './types.js';
import { writeOut } from './write-out.js';

/**
 * CSV with a header taken from `--fields` or else from the first row's keys, so
 * rows can be written as they arrive. Later rows' extra keys are dropped (a CSV
 * cannot grow columns); pass `--fields` to choose them.
 */
export function createCsvWriter(options: OutputOptions): RowWriter {
  let columns: string[] | undefined = options.fields;
  let headerWritten = false;
  return {
    async write(row: Row) {
      columns ??= Object.keys(row);
      const cols = columns;
      const lines: string[][] = headerWritten ? [] : [cols];
      headerWritten = true;
      lines.push(cols.map((c) => cellText(fieldValue(row, c))));
      await writeOut(options.stdout, stringify(lines));
    },
    async end() {
      // An empty result still gets its header when the columns are known.
      if (!headerWritten && columns) await writeOut(options.stdout, stringify([columns]));
    },
  };
}
