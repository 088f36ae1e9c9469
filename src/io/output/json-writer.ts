import { pickFields } from './fields.js';
import type { OutputOptions, Row, RowWriter } from './types.js';
import { writeOut } from './write-out.js';
import { jsonText } from '../../json/json-text.js';

/** A JSON array written element by element: valid JSON at the end, constant memory meanwhile. */
export function createJsonWriter(options: OutputOptions): RowWriter {
  let count = 0;
  return {
    async write(row: Row) {
      const text = jsonText(pickFields(row, options.fields), 2).replace(/\n/g, '\n  ');
      // Counted before writing: concurrent writers must not both open the array.
      const prefix = count === 0 ? '[\n  ' : ',\n  ';
      count += 1;
      await writeOut(options.stdout, `${prefix}${text}`);
    },
    async end() {
      await writeOut(options.stdout, count === 0 ? '[]\n' : '\n]\n');
    },
  };
}

/** One line of JSON per row. */
export function createNdjsonWriter(options: OutputOptions): RowWriter {
  return {
    write: (row: Row) => writeOut(options.stdout, `${jsonText(pickFields(row, options.fields))}\n`),
    end: () => Promise.resolve(),
  };
}
