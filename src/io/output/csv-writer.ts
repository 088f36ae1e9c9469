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
  // Fields of later rows that the header (taken from the first) has no column for:
  // said once at the end, since an export fed back as input would lose them.
  const known = new Set<string>();
  const dropped = new Set<string>();
  return {
    async write(row: Row) {
      if (!columns) {
        columns = Object.keys(row);
        for (const column of columns) known.add(column);
      } else if (!options.fields) {
        for (const key of Object.keys(row)) if (!known.has(key)) dropped.add(key);
      }
      const cols = columns;
      const lines: string[][] = headerWritten ? [] : [cols];
      headerWritten = true;
      lines.push(cols.map((c) => cellText(fieldValue(row, c))));
      await writeOut(options.stdout, stringify(lines));
    },
    async end() {
      // An empty result still gets its header when the columns are known.
      if (!headerWritten && columns) await writeOut(options.stdout, stringify([columns]));
      if (dropped.size > 0) {
        options.warn?.(`warning: the csv columns come from the first record; later records also had ${[...dropped].join(', ')}, left out (name every column with --fields)`);
      }
    },
  };
}
