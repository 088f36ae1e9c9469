import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BadRow, SourceItem } from '../../src/io/input/index.js';

/** A temporary folder for input files, removed by `cleanup`. */
export async function tempFolder(): Promise<{ dir: string; file(name: string, text: string): Promise<string>; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'pla-input-'));
  return {
    dir,
    async file(name, text) {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Drains a source into an array. */
export async function collect<T>(source: AsyncIterable<SourceItem<T>>): Promise<Array<SourceItem<T>>> {
  const items: Array<SourceItem<T>> = [];
  for await (const item of source) items.push(item);
  return items;
}

/** Options that record the bad rows a reader reports. */
export function recordingBadRows(): { badRows: BadRow[]; onBadRow(row: BadRow): void } {
  const badRows: BadRow[] = [];
  return { badRows, onBadRow: (row) => badRows.push(row) };
}
