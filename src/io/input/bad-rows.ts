import { InputError } from '../../errors.js';
import type { BadRow, ReadOptions } from './types.js';

/** Counters a reader keeps while it streams; the bulk runner folds them into its summary. */
export interface InputStats {
  /** Items yielded so far. */
  items: number;
  /** Unreadable rows skipped so far (always 0 in strict mode: the first one throws). */
  badRows: number;
  /** Rows read but refused before sending (an id that is no id, an ambiguous duplicate). */
  refused: number;
  /** Rows repeating an earlier row exactly (same id, same values): sent once, as the first. */
  repeats: number;
}

/** Reports one bad row of the input. */
export type BadRowHandler = (row: BadRow) => void;

/** A handler that throws `InputError` in strict mode, else counts the row in `stats` and tells `onBadRow`. */
export function createBadRowHandler(options: ReadOptions, stats: InputStats): BadRowHandler {
  return (row) => {
    if (options.strict) throw new InputError(row.message, row.line);
    if (row.record) stats.refused += 1;
    else stats.badRows += 1;
    options.onBadRow?.(row);
  };
}

/**
 * Bad rows passed on to whoever takes them (the bulk runner: a warning above its
 * progress bar and a line in the rejects file); rows found before anyone listens
 * are held and handed over when someone does.
 */
export class BadRowRelay {
  private readonly held: BadRow[] = [];
  private listener: ((row: BadRow) => void) | undefined;

  send(row: BadRow): void {
    if (this.listener) this.listener(row);
    else this.held.push(row);
  }

  listen(listener: (row: BadRow) => void): void {
    this.listener = listener;
    for (const row of this.held.splice(0)) listener(row);
  }
}
