/** The spinner on odd terminals: one that reports no width must not hang the run. */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSpinner } from '../../src/io/output/spinner.js';

/** A terminal stand-in of `columns` width; clearing more than 1,000 lines counts as a hang. */
function terminal(columns: number) {
  let cleared = 0;
  let written = '';
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    }),
    {
      isTTY: true,
      columns,
      clearLine() {
        cleared += 1;
        if (cleared > 1000) throw new Error('clearing lines without end');
        return true;
      },
      moveCursor: () => true,
      cursorTo: () => true,
    },
  );
  return { stream, written: () => written };
}

// ora draws only on what it takes for an interactive terminal.
const saved = { TERM: process.env.TERM, CI: process.env.CI };
beforeEach(() => {
  process.env.TERM = 'xterm';
  delete process.env.CI;
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('spinner', () => {
  it('draws and stops on a terminal with a width', async () => {
    const tty = terminal(80);
    const spinner = await startSpinner('loading…', true, tty.stream);
    spinner.update('2/3 tasks finished');
    spinner.succeed('3 tasks finished');
    expect(tty.written()).toContain('3 tasks finished');
  });

  it('stays off on a terminal that reports no width (a pty opened without a size)', async () => {
    const tty = terminal(0);
    const spinner = await startSpinner('loading…', true, tty.stream);
    spinner.update('1/2 tasks finished');
    spinner.stop();
    spinner.fail();
    expect(tty.written()).toBe('');
  });

  it('stays off when not asked for', async () => {
    const tty = terminal(80);
    (await startSpinner('loading…', false, tty.stream)).stop();
    expect(tty.written()).toBe('');
  });
});
