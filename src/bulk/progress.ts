/**
 * A progress line on a terminal (stderr) for bulk runs, drawn by ora (which the
 * spinners already use): ora owns the line — hides the cursor, redraws in place,
 * clears as many rows as its text took — and this module decides the text, fitted
 * to the terminal's width at every redraw (a resized window just gets a shorter
 * or longer bar). Lines for a person printed while it shows go above it
 * (`above`), and `finish` leaves no trace of it.
 */
import { count, duration } from './format-numbers.js';
import { cut } from '../io/output/table-layout.js';

/** What the bulk runner tells the bar. */
export interface Progress {
  /** Items done so far. */
  update(done: number): void;
  /** Prints `line` above the bar, which is drawn again below it. */
  above(line: string): void;
  /** Writes whole lines of `text` to `stream` (stdout on the same terminal) above the bar. */
  aboveOn(stream: NodeJS.WritableStream, text: string): void;
  /** Clears the bar (and shows the cursor again) so the summary prints on a clean line. */
  finish(): void;
}

/** Starts a progress bar for `total` items (when known), or gives none (no terminal to draw on). */
export type StartProgress = (total: number | undefined) => Promise<Progress | undefined>;

const REDRAW_EVERY_MS = 100;
/** The bar's share of a wide terminal: enough to see movement, no more. */
const MAX_BAR = 40;
/** Below this many cells a bar shows nothing useful: the counts alone are drawn. */
const MIN_BAR = 10;

/** Columns ora's spinner takes before the text: the frame and a space. */
const SPINNER = 2;

/**
 * The text beside the spinner: `[=====     ] 42%  2,100/5,000  812/s  ETA 4 s`,
 * as much of it as fits `columns` (the bar shrinks first, then goes; the counts
 * are cut last).
 */
export function progressText(done: number, total: number | undefined, elapsedMs: number, columns: number): string {
  const seconds = Math.max(elapsedMs / 1000, 0.001);
  const rate = done / seconds;
  const parts = [`${count(done)}${total ? `/${count(total)}` : ''}`, `${count(Math.round(rate))}/s`];
  if (total && rate > 0 && done < total) parts.push(`ETA ${duration(((total - done) / rate) * 1000)}`);
  const room = columns - SPINNER - 1;
  if (!total) return cut(parts.join('  '), room);
  const share = Math.min(done / total, 1);
  const numbers = `${String(Math.floor(share * 100)).padStart(3)}%  ${parts.join('  ')}`;
  const barWidth = Math.min(MAX_BAR, room - numbers.length - 3);
  if (barWidth < MIN_BAR) return cut(numbers.trimStart(), room);
  const filled = Math.round(share * barWidth);
  return `[${'='.repeat(filled)}${' '.repeat(barWidth - filled)}] ${numbers}`;
}

/**
 * Starts the bar on `stream` (a terminal); `total` when the item count is known.
 * Redraws at most every 100 ms however often it is told.
 */
export async function startProgress(stream: NodeJS.WritableStream & { columns?: number }, total: number | undefined): Promise<Progress> {
  const { default: ora } = await import('ora');
  const started = Date.now();
  let lastDraw = 0;
  const text = (done: number) => progressText(done, total, Date.now() - started, stream.columns ?? 80);
  // isEnabled: the caller checked the stream is a terminal; ora's own check also
  // says no under a CI variable, where a terminal is still a terminal.
  const spinner = ora({ text: text(0), stream, discardStdin: false, isEnabled: true }).start();
  return {
    update(done) {
      const now = Date.now();
      if (now - lastDraw < REDRAW_EVERY_MS) return;
      lastDraw = now;
      spinner.text = text(done);
    },
    above(line) {
      spinner.clear();
      stream.write(`${line}\n`);
      spinner.render();
    },
    aboveOn(other, text) {
      spinner.clear();
      other.write(text);
      spinner.render();
    },
    finish() {
      spinner.stop();
    },
  };
}
