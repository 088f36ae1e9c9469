import type { OutputOptions, Row, RowWriter } from './types.js';
import { writeOut } from './write-out.js';

/** `-q`: each row's id on its own line, ready for `xargs` or `--ids-file -`. */
export function createQuietWriter(options: OutputOptions): RowWriter {
  return {
    async write(row: Row) {
      if (row.id !== undefined && row.id !== null) await writeOut(options.stdout, `${String(row.id)}\n`);
    },
    end: () => Promise.resolve(),
  };
}
