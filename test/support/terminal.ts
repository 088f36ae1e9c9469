/**
 * Runs the built CLI on a real pseudo-terminal of a chosen width and reads the
 * screen it leaves, as a person would see it. The terminal is util-linux's
 * `script` (in every Debian, no tmux needed); what the CLI wrote to it (escape
 * sequences, carriage returns, line clears) is played into a terminal emulator
 * (@xterm/headless, xterm.js without a display) of the same width.
 */
import { fileURLToPath } from 'node:url';
import { Terminal } from '@xterm/headless';
import { execa } from 'execa';

const BIN = fileURLToPath(new URL('../../bin/pla.js', import.meta.url));

export interface ScreenLine {
  text: string;
  /** The line continues the one above: the terminal wrapped a line wider than itself. */
  wrapped: boolean;
}

export interface TerminalRun {
  exitCode: number | undefined;
  /** Every line the run left on the screen, scrollback included, trailing blanks dropped. */
  lines: ScreenLine[];
  /** The bytes written to the terminal, for failure messages. */
  raw: string;
}

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Plays terminal output into an emulator `columns` wide and returns its lines. */
export async function screenOf(raw: string, columns: number): Promise<ScreenLine[]> {
  const term = new Terminal({ cols: columns, rows: 50, scrollback: 100_000, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(raw, resolve));
  const buffer = term.buffer.active;
  const lines: ScreenLine[] = [];
  for (let i = 0; i < buffer.length; i++) {
    const line = buffer.getLine(i);
    if (line) lines.push({ text: line.translateToString(true), wrapped: line.isWrapped });
  }
  while (lines.length > 0 && lines.at(-1)?.text === '') lines.pop();
  term.dispose();
  return lines;
}

/** Runs `pla args` on a terminal `columns` wide and `rows` high (default 50; stdout and stderr both on it). */
export async function runInTerminal(
  args: string[],
  options: { columns: number; rows?: number; env?: Record<string, string>; cwd?: string; input?: string },
): Promise<TerminalRun> {
  const command = `stty cols ${options.columns} rows ${options.rows ?? 50} && exec node ${[BIN, ...args].map(quote).join(' ')}`;
  const result = await execa('script', ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', TERM: 'xterm-256color', ...options.env },
    extendEnv: false,
    // Typed on the terminal (the answer to a prompt), or nothing.
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
    reject: false,
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const raw = String(result.stdout);
  return { exitCode: result.exitCode, lines: await screenOf(raw, options.columns), raw };
}
