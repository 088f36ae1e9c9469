/**
 * Column widths for a table that fits a terminal, the way `gh` fits its lists:
 * short columns (ids, statuses, amounts) stay whole, long ones shrink and their
 * cells are cut with `…`, and when even that cannot fit, the last columns are
 * left out (said on stderr; `--wide` shows every column and every character).
 */
import stringWidth from 'string-width';
import { terminalSafe } from '../terminal-text.js';

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
 * become one space, control characters are shown visibly (src/io/terminal-text.ts),
 * so widths are measured on what is shown.
 */
export const flat = (text: string): string => terminalSafe(text.replace(/\s+/g, ' '));

export interface Layout {
  /** Width of each shown column's content (without padding). */
  widths: number[];
  /** How many of the columns, from the first, are shown. */
  shown: number;
}

/**
 * Widths for columns whose content wants `natural` widths (header included).
 * Without a terminal width every column gets what it wants (up to MAX_CELL,
 * unless `wide`); with one, the table is fitted to it as the module comment says.
 */
export function fitColumns(natural: number[], terminalWidth: number | undefined, wide: boolean): Layout {
  const wanted = natural.map((w) => (wide ? w : Math.min(w, MAX_CELL)));
  if (wide || terminalWidth === undefined) return { widths: wanted, shown: wanted.length };
  const least = (w: number): number => (w <= WHOLE ? w : MIN_CUT);
  let shown = wanted.length;
  const budget = () => terminalWidth - borderWidth(shown);
  const needed = () => wanted.slice(0, shown).reduce((sum, w) => sum + least(w), 0);
  // Leave out columns from the right until the others fit at their least.
  while (shown > 1 && needed() > budget()) shown -= 1;
  const widths = wanted.slice(0, shown).map(least);
  // Share what is left among the columns that want more, a column at a time.
  let spare = Math.max(0, budget() - widths.reduce((sum, w) => sum + w, 0));
  while (spare > 0) {
    let neediest = -1;
    for (let i = 0; i < shown; i++) {
      const short = (wanted[i] ?? 0) - (widths[i] ?? 0);
      if (short > 0 && (neediest === -1 || short > (wanted[neediest] ?? 0) - (widths[neediest] ?? 0))) neediest = i;
    }
    if (neediest === -1) break;
    widths[neediest] = (widths[neediest] ?? 0) + 1;
    spare -= 1;
  }
  // A single column wider than the terminal still has to fit.
  if (shown === 1) widths[0] = Math.max(1, Math.min(widths[0] ?? 1, budget()));
  return { widths, shown };
}
