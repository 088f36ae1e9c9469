/**
 * Column widths for a table that fits a terminal, the way `gh` fits its lists:
 * short columns (amounts, codes) and the columns a reader copies (ids, status)
 * stay whole, dates shorten to the minute or the day, long text shrinks and is
 * cut with `…`, and when even that cannot fit, columns are left out: empty or
 * constant ones first, then from the right, never the kept ones (said below the
 * table on stderr; `--wide` shows every column and every character).
 */
import stringWidth from 'string-width';
import { terminalSafe } from '../../contract/terminal-text.js';

/** Longest cell shown when nothing else limits it (use --wide or -o json for everything). */
export const MAX_CELL = 48;
/** A column this narrow (or narrower) is never cut: ids, dates, statuses, amounts. */
const WHOLE = 10;
/** A long column is not shrunk below this: fewer characters no longer say anything. */
export const MIN_CUT = 8;

/** Columns of a terminal taken by a row's borders and padding: `│ a │ b │`. */
export const borderWidth = (columns: number): number => 3 * columns + 1;

/** Display width: wide characters count two, escape codes nothing. */
export const displayWidth = (text: string): number => stringWidth(text);

/** Cuts `text` to `width` display columns, ending in `…` when cut; by code points, never half an emoji. */
export function cut(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = displayWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/**
 * One line of a cell as the terminal shows it: whitespace runs (newlines too)
 * become one space, control characters are shown visibly (src/contract/terminal-text.ts),
 * so widths are measured on what is shown.
 */
export const flat = (text: string): string => terminalSafe(text.replace(/\s+/g, ' '));

/** What the layout needs to know of one column. */
export interface ColumnNeed {
  /** Width its content wants, header included. */
  natural: number;
  /**
   * Never cut and never left out: the columns a reader copies or reads a row by
   * (`id`, `status`, the run id), as gh never cuts an issue number.
   */
  keep: boolean;
  /** Every cell empty, or every cell the same: the first to go when the table is too wide. */
  useless: boolean;
  /** Holds ISO dates: shortened to the minute or the day rather than cut (see `shortDate`). */
  dates: boolean;
  /**
   * What a row is known by in words (a name, a run's command): shown at READABLE
   * columns at least, other columns (timestamps first, being last) left out before
   * it is cut shorter.
   */
  readable?: boolean;
}

/** The least a readable column (`name`, `command`) is given: enough to tell rows apart by it. */
const READABLE = 24;

export interface Layout {
  /** Indexes of the shown columns, in their order. */
  shown: number[];
  /** Width of each shown column's content (without padding), as `shown`. */
  widths: number[];
}

/** Narrowest a date column gets: the day (`2026-11-24`). */
const DATE_LEAST = 10;

/** The widths a date shows more at: the day, the minute, the second (`shortDate`). */
const DATE_STEPS = [DATE_LEAST, 16, 19];

/** An ISO 8601 date-time as the server writes it (`2026-11-24T07:13:03.204Z`). */
const ISO_DATE_TIME = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)(:\d\d(?:\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/;

/** True when `text` is an ISO date-time a date column can shorten. */
export const isIsoDateTime = (text: string): boolean => ISO_DATE_TIME.test(text);

/**
 * An ISO date-time in `width` columns: whole when it fits, else to the second, the
 * minute (`2026-11-24 07:13`) or the day. Never cut in the middle (`2026-11-…`).
 */
export function shortDate(text: string, width: number): string {
  const match = ISO_DATE_TIME.exec(text);
  if (!match || text.length <= width) return text;
  const [, day, minute, seconds = ''] = match;
  const second = `${day} ${minute}${seconds.slice(0, 3)}`;
  if (second.length <= width) return second;
  if (width >= 16) return `${day} ${minute}`;
  return day ?? text;
}

/** The least width a column can be given. */
function leastOf(column: ColumnNeed, wanted: number): number {
  if (column.keep) return wanted;
  if (column.readable) return Math.min(wanted, READABLE);
  if (column.dates) return Math.min(wanted, DATE_LEAST);
  return wanted <= WHOLE ? wanted : MIN_CUT;
}

/**
 * The order columns are left out in when the table is too wide: empty or constant
 * columns first, then the others from the right; kept columns never.
 */
function dropOrder(columns: readonly ColumnNeed[]): number[] {
  const fromRight = columns
    .map((_, i) => i)
    .reverse()
    .filter((i) => !columns[i]?.keep);
  return [...fromRight.filter((i) => columns[i]?.useless), ...fromRight.filter((i) => !columns[i]?.useless)];
}

/**
 * Widths for the columns. Without a terminal width every column gets what it wants
 * (up to MAX_CELL, unless `wide`); with one, the table is fitted to it as the
 * module comment says, leaving out the least useful columns first.
 */
export function fitColumns(columns: readonly ColumnNeed[], terminalWidth: number | undefined, wide: boolean): Layout {
  const wanted = columns.map((c) => (wide || c.keep ? c.natural : Math.min(c.natural, MAX_CELL)));
  const all = columns.map((_, i) => i);
  if (wide || terminalWidth === undefined) return { shown: all, widths: wanted };
  const shown = new Set(all);
  const budget = () => terminalWidth - borderWidth(shown.size);
  const needed = () => [...shown].reduce((sum, i) => sum + leastOf(columns[i] as ColumnNeed, wanted[i] ?? 0), 0);
  // Leave out columns until the others fit at their least.
  for (const i of dropOrder(columns)) {
    if (shown.size <= 1 || needed() <= budget()) break;
    shown.delete(i);
  }
  const order = all.filter((i) => shown.has(i));
  const widths = order.map((i) => leastOf(columns[i] as ColumnNeed, wanted[i] ?? 0));
  // Share what is left among the columns that want more, a column at a time; a
  // date column takes only the widths it can use (day, minute, second, whole).
  let spare = Math.max(0, budget() - widths.reduce((sum, w) => sum + w, 0));
  const nextWidth = (k: number): number => {
    const column = order[k] as number;
    const now = widths[k] ?? 0;
    if (!columns[column]?.dates) return now + 1;
    return (
      DATE_STEPS.concat(wanted[column] ?? 0)
        .filter((w) => w > now && w <= (wanted[column] ?? 0))
        .sort((a, b) => a - b)[0] ?? now
    );
  };
  for (;;) {
    let neediest = -1;
    let shortest = 0;
    order.forEach((column, k) => {
      const short = (wanted[column] ?? 0) - (widths[k] ?? 0);
      if (short > shortest && nextWidth(k) - (widths[k] ?? 0) <= spare) [neediest, shortest] = [k, short];
    });
    if (neediest === -1) break;
    const grown = nextWidth(neediest);
    spare -= grown - (widths[neediest] ?? 0);
    widths[neediest] = grown;
  }
  // A single column wider than the terminal still has to fit.
  if (order.length === 1) widths[0] = Math.max(1, Math.min(widths[0] ?? 1, budget()));
  return { shown: order, widths };
}
