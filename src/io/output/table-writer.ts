import { inspect } from 'node:util';
import Table from 'cli-table3';
import { cellText, fieldValue } from './fields.js';
import type { OutputOptions, Row, RowWriter } from './types.js';
import { writeOut } from './write-out.js';

/** Longest cell shown; the rest is cut with an ellipsis (use -o json for everything). */
const MAX_CELL = 48;

/** Cut by code points, not UTF-16 units: an emoji cut in half would print as `�`. */
function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  if (flat.length <= MAX_CELL) return flat;
  const points = Array.from(flat);
  return points.length > MAX_CELL ? `${points.slice(0, MAX_CELL - 1).join('')}…` : flat;
}

/**
 * No rule between rows (cli-table3 draws one by default): a list of records reads
 * like `gh` or `kubectl` output, and twice as many records fit on a screen.
 */
const COMPACT_CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/**
 * Column names and keys in cyan when colour is on. Painted here rather than through
 * cli-table3's `style`, whose colour library decides by itself from the process's
 * own stdout and environment (e.g. `CI`): the IO object's decision is the one rule.
 * (`util.styleText` would second-guess it the same way, from the real stdout.)
 */
function label(text: string, options: OutputOptions): string {
  const [open, close] = inspect.colors.cyan ?? [36, 39];
  return options.color ? `\x1b[${open}m${text}\x1b[${close}m` : text;
}

function newTable(options: OutputOptions, head?: string[]): Table.Table {
  const style = { head: [], border: [] };
  const painted = head?.map((h) => label(h, options));
  return new Table(painted ? { head: painted, style, chars: COMPACT_CHARS } : { style, chars: COMPACT_CHARS });
}

/** Rows as a grid. Columns: `--fields`, else every key in order of first appearance. */
export function createTableWriter(options: OutputOptions): RowWriter {
  const rows: Row[] = [];
  return {
    async write(row: Row) {
      rows.push(row);
    },
    async end() {
      if (rows.length === 0) return;
      const columns = options.fields ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
      const table = newTable(options, columns);
      for (const row of rows) table.push(columns.map((c) => truncate(cellText(fieldValue(row, c)))));
      await writeOut(options.stdout, `${table.toString()}\n`);
    },
  };
}

/** One record (or a count map) as a two-column key/value grid. */
export async function writeKeyValueTable(record: Row, options: OutputOptions): Promise<void> {
  const keys = options.fields ?? Object.keys(record);
  const table = newTable(options);
  for (const key of keys) table.push({ [label(key, options)]: truncate(cellText(fieldValue(record, key))) });
  await writeOut(options.stdout, `${table.toString()}\n`);
}
