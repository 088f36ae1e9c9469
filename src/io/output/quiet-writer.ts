import type { OutputOptions, Row, RowWriter } from './types.js';
import { writeOut } from './write-out.js';

/** A row's id: its `id`, else the same name in another case (ASP.NET's `Id`, `ID`). */
function rowId(row: Row): unknown {
  if (row.id !== undefined) return row.id;
  const key = Object.keys(row).find((name) => name.toLowerCase() === 'id');
  return key === undefined ? undefined : row[key];
}

/** `-q`: each row's id on its own line, ready for `xargs` or `--ids-file -`. */
export function createQuietWriter(options: OutputOptions): RowWriter {
  return {
    async write(row: Row) {
      const id = rowId(row);
      if (id !== undefined && id !== null) await writeOut(options.stdout, `${String(id)}\n`);
    },
    end: () => Promise.resolve(),
  };
}
