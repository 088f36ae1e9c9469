import { count, duration } from './format-numbers.js';

const REDRAW_EVERY_MS = 100;
const WIDTH = 24;

/**
 * A one-line progress bar on a terminal stream: done/total, rate and ETA (bar and
 * ETA only when the total is known). Redraws at most every 100 ms however often
 * it is told, so a fast run does not spend its time painting.
 */
export class ProgressBar {
  private readonly started = Date.now();
  private lastDraw = 0;
  private done = 0;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly total?: number,
  ) {}

  update(done: number): void {
    this.done = done;
    const now = Date.now();
    if (now - this.lastDraw < REDRAW_EVERY_MS) return;
    this.lastDraw = now;
    this.draw(now);
  }

  /** Clears the line so the summary prints on a clean one. */
  finish(): void {
    this.stream.write('\r\x1b[2K');
  }

  private draw(now: number): void {
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = this.done / seconds;
    const parts = [`${count(this.done)}${this.total ? `/${count(this.total)}` : ''}`, `${count(Math.round(rate))}/s`];
    let bar = '';
    if (this.total) {
      const share = Math.min(this.done / this.total, 1);
      const filled = Math.round(share * WIDTH);
      bar = `[${'='.repeat(filled)}${' '.repeat(WIDTH - filled)}] ${Math.floor(share * 100)}% `;
      if (rate > 0 && this.done < this.total) parts.push(`ETA ${duration(((this.total - this.done) / rate) * 1000)}`);
    }
    this.stream.write(`\r\x1b[2K${bar}${parts.join('  ')}`);
  }
}
