import { inspect } from 'node:util';
import Table from 'cli-table3';
import { cellText, fieldValue } from './fields.js';
import { borderWidth, cut, displayWidth, fitColumns, flat, isIsoDateTime, MAX_CELL, MIN_CUT, shortDate, type ColumnNeed, type Layout } from './table-layout.js';
import type { OutputOptions, Row, RowWriter } from './types.js';
import { writeOut } from './write-out.js';

/**
 * Rows looked at before the table is drawn: they decide its columns and widths;
 * later rows stream under the same layout (cut to it, or wrapped with --wide).
 */
const LAYOUT_ROWS = 100;

/**
 * No rule between rows (cli-table3 draws one by default): a list of records reads
 * like `gh` or `kubectl` output, and twice as many records fit on a screen.
 */
const COMPACT_CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/** The text of a cell on one line, cut to `width` (wrapped by the table instead with --wide); dates shortened, not cut. */
function cellFor(value: unknown, width: number, wide: boolean, dates = false): string {
  const text = flat(cellText(value));
  if (wide) return text;
  return cut(dates ? shortDate(text, width) : text, width);
}

/**
 * Columns a reader copies or reads a row by: never cut, never left out (`runs show
 * <run>`, `tasks cancel <id>`, a base URL's host and port, a run's counts).
 */
const KEPT_COLUMNS = /^(id|run|runId|status|state|read|baseUrl|counts)$/;

/** Columns a row is known by in words: given room before other columns are (table-layout.ts). */
const READABLE_COLUMNS = /^(name|command|title|description|message)$/;

/** Timestamps (`createdAt`, `lastModifiedDate`): after the fields a record is known by (name, code, key), as gh and kubectl put AGE last. */
const TIMESTAMP_COLUMNS = /(At|Date|Time)$/;

/** The columns in the order shown: as first seen, timestamps moved after the others (`--fields` keeps its own order). */
function ordered(columns: string[]): string[] {
  return [...columns.filter((c) => !TIMESTAMP_COLUMNS.test(c)), ...columns.filter((c) => TIMESTAMP_COLUMNS.test(c))];
}

/** What the layout needs to know of `column`, from the rows held to lay the table out. */
function columnNeed(column: string, rows: readonly Row[]): ColumnNeed {
  const texts = rows.map((row) => flat(cellText(fieldValue(row, column))));
  const filled = texts.filter((text) => text !== '');
  return {
    natural: Math.max(displayWidth(flat(column)), ...texts.map(displayWidth)),
    keep: KEPT_COLUMNS.test(column),
    readable: READABLE_COLUMNS.test(column),
    // One row says nothing about a column being the same everywhere, only about it being empty.
    useless: filled.length === 0 || (rows.length > 1 && texts.every((text) => text === texts[0])),
    dates: filled.length > 0 && filled.every(isIsoDateTime),
  };
}

/**
 * Column names and keys in cyan when colour is on. Painted here rather than through
 * cli-table3's `style`, whose colour library decides by itself from the process's
 * own stdout and environment (e.g. `CI`): the IO object's decision is the one rule.
 * (`util.styleText` would second-guess it the same way, from the real stdout.)
 */
function label(text: string, options: OutputOptions): Table.CellOptions {
  const [open, close] = inspect.colors.cyan ?? [36, 39];
  // Never wrapped: its column is as wide as it, and cli-table3's wrapping (--wide) counts the colour codes.
  return { content: options.color ? `\x1b[${open}m${flat(text)}\x1b[${close}m` : flat(text), wordWrap: false };
}

function newTable(options: OutputOptions, widths: number[], head?: string[]): Table.Table {
  const table = new Table({
    style: { head: [], border: [] },
    chars: COMPACT_CHARS,
    colWidths: widths.map((w) => w + 2),
    wordWrap: options.wide === true,
    wrapOnWordBoundary: false,
  });
  // The header as a first row (no rule under it, as under the others) of cells that are never wrapped.
  if (head) table.push(head.map((h) => label(h, options)));
  return table;
}

/** Says (after the table, on stderr) which columns a fitted table left out, and how to see them. */
function noteLeftOut(options: OutputOptions, columns: string[], layout: Layout): void {
  const left = columns.filter((_, i) => !layout.shown.includes(i));
  if (left.length === 0) return;
  const start = `${left.length} more column${left.length === 1 ? '' : 's'} (`;
  const end = '): --wide shows all';
  // Named, as many as the terminal's line holds: the note is one line too.
  const room = options.width === undefined ? Infinity : options.width - displayWidth(start + end);
  options.warn?.(`${start}${cut(left.join(', '), Math.max(MIN_CUT, room))}${end}`);
}

/**
 * Rows as a grid that fits the terminal (`options.width`). Columns: `--fields`,
 * else every key of the first rows in order of first appearance. The first
 * LAYOUT_ROWS rows are held to lay it out; then it streams, so `--all` prints page
 * after page like the other formats.
 */
export function createTableWriter(options: OutputOptions): RowWriter {
  const held: Row[] = [];
  let drawn: { columns: string[]; needs: ColumnNeed[]; layout: Layout; bottom: string } | undefined;
  const wide = options.wide === true;

  const cells = (row: Row, columns: string[], needs: ColumnNeed[], layout: Layout) =>
    layout.shown.map((c, k) => cellFor(fieldValue(row, columns[c] as string), layout.widths[k] ?? 0, wide, needs[c]?.dates));

  /** Rows the layout was last sized over: a re-flow sizes over them and the row that did not fit. */
  let sizedOver: Row[] = [];

  /** Draws a header laid out over `sizing`, then `rows` under it (the held rows; on a re-flow, the one row that did not fit). */
  const draw = async (sizing: Row[], rows: readonly Row[], columnsGiven?: string[]) => {
    const columns = columnsGiven ?? options.fields ?? ordered([...new Set(sizing.flatMap((r) => Object.keys(r)))]);
    const needs = columns.map((column) => columnNeed(column, sizing));
    const layout = fitColumns(needs, options.width, wide);
    const table = newTable(
      options,
      layout.widths,
      layout.shown.map((c) => columns[c] as string),
    );
    for (const row of rows) table.push(cells(row, columns, needs, layout));
    const lines = table.toString().split('\n');
    const bottom = lines.pop() ?? '';
    drawn = { columns, needs, layout, bottom };
    sizedOver = sizing.slice(-LAYOUT_ROWS);
    await writeOut(options.stdout, `${lines.join('\n')}\n`);
  };

  const drawHeld = async () => {
    const rows = held.splice(0);
    await draw(rows, rows);
  };

  /** Whether a kept cell of `row` (an id, a status) is wider than its column: never cut, so the table is laid out anew. */
  const outgrows = (row: Row): boolean => {
    if (!drawn || wide) return false;
    const { columns, needs, layout } = drawn;
    return layout.shown.some(
      (c, k) => needs[c]?.keep === true && displayWidth(flat(cellText(fieldValue(row, columns[c] as string)))) > (layout.widths[k] ?? 0),
    );
  };

  return {
    async write(row: Row) {
      if (!drawn) {
        held.push(row);
        if (held.length >= LAYOUT_ROWS) await drawHeld();
        return;
      }
      // Ids grow past the first page's (`--all`): the table ends and a new one, sized over them too, goes on.
      if (outgrows(row)) {
        await writeOut(options.stdout, `${drawn.bottom}\n`);
        await draw([...sizedOver, row], [row], drawn.columns);
        return;
      }
      const table = newTable(options, drawn.layout.widths);
      table.push(cells(row, drawn.columns, drawn.needs, drawn.layout));
      // A one-row table without a header: its own top and bottom lines are not needed.
      const lines = table.toString().split('\n').slice(1, -1);
      await writeOut(options.stdout, `${lines.join('\n')}\n`);
    },
    async end() {
      if (!drawn && held.length > 0) await drawHeld();
      if (!drawn) return;
      await writeOut(options.stdout, `${drawn.bottom}\n`);
      noteLeftOut(options, drawn.columns, drawn.layout);
    },
  };
}

/** One record (or a count map) as a two-column key/value grid; on a terminal only the values give way. */
export async function writeKeyValueTable(record: Row, options: OutputOptions): Promise<void> {
  const wide = options.wide === true;
  const keys = options.fields ?? Object.keys(record);
  const values = keys.map((key) => flat(cellText(fieldValue(record, key))));
  const keyWidth = Math.max(1, ...keys.map((key) => displayWidth(flat(key))));
  const wanted = Math.max(1, ...values.map(displayWidth));
  const room = options.width === undefined || wide ? Infinity : options.width - borderWidth(2) - keyWidth;
  const valueWidth = Math.max(MIN_CUT, Math.min(wide ? wanted : Math.min(wanted, MAX_CELL), room));
  const table = newTable(options, [keyWidth, valueWidth]);
  keys.forEach((key, i) => table.push([label(key, options), cellFor(values[i], valueWidth, wide, isIsoDateTime(values[i] ?? ''))]));
  await writeOut(options.stdout, `${table.toString()}\n`);
}
