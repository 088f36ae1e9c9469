import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { readRecords, type BadRow, type SourceItem } from '../../src/io/input/index.js';

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

/**
 * A folder for a test file's input files, made before its tests and removed after
 * them; `records` reads one written there: its records as `[line, value]` and its
 * bad rows as `badRow` shows them.
 */
export function inputFolder<B>(badRow: (row: BadRow) => B) {
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  beforeAll(async () => {
    folder = await tempFolder();
  });
  afterAll(() => folder.cleanup());
  return {
    file: (name: string, text: string) => folder.file(name, text),
    async records(name: string, text: string, options: Parameters<typeof readRecords>[1] = {}) {
      const bad = recordingBadRows();
      const items = await collect(readRecords({ file: await folder.file(name, text) }, { ...bad, ...options }));
      return { items: items.map((item) => [item.line, item.value] as const), bad: bad.badRows.map((row) => [row.line, badRow(row)] as const) };
    },
  };
}
