/**
 * The streams a command talks through and what is known about them, in one
 * object (as gh's IOStreams): handlers, renderers, spinners, progress and prompts
 * take it from the command context instead of reading `process.*`. The CLI's
 * entry builds it from the process once (`src/cli/system-io.ts`); tests build one
 * over buffers with the terminal flags they choose (`createIOStreams`).
 */
import type { Readable } from 'node:stream';
import { terminalSafe } from '../contract/terminal-text.js';

/** stdin as the prompts need it: a terminal's raw mode when there is one. */
export type InputStream = Readable & { setRawMode?: (mode: boolean) => unknown };

export interface IOStreams {
  readonly stdin: InputStream;
  /** Data only: records, ids, documents. */
  readonly stdout: NodeJS.WritableStream;
  /** Everything for a person: notes, warnings, spinners, progress, prompts, errors. */
  readonly stderr: NodeJS.WritableStream;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /**
   * Columns of the terminal stderr is on (where spinners and progress draw), else
   * of stdout's; undefined when neither is a terminal or it reports no width.
   */
  readonly terminalColumns: number | undefined;
  /** Colour in output: stdout is a terminal and NO_COLOR is not set (`--no-color` is the command's to add). */
  readonly colorEnabled: boolean;
  /** A question can be asked and answered: stdin and stderr are both terminals. */
  canPrompt(): boolean;
  /** Rows of the terminal stdout (else stderr) is on; undefined off a terminal. */
  readonly terminalRows: number | undefined;
  /** The pager command (`$PAGER`, else `less -FRX`); '' or `cat` = none. */
  readonly pager: string;
}

/** What an `IOStreams` is made of; the flags default to "not a terminal". */
export interface IOStreamsParts {
  stdin: InputStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  terminalColumns?: number;
  terminalRows?: number;
  /** `$PAGER` as set (undefined when unset). */
  pager?: string;
  /** NO_COLOR is set (any non-empty value, https://no-color.org). */
  noColor?: boolean;
}

/**
 * Builds the IO object from its parts: the one rule for colour and prompting.
 * `stdin` and `stdinIsTTY` are read from `parts` only when first asked for, so a
 * parts object whose `stdin` is a getter (`systemIO`) costs nothing until a
 * command reads input: Node builds the process's stdin stream on first touch, and for a
 * file or /dev/null that loads its fs stream and promise modules (~2 ms of a
 * `get`'s start-up, docs/startup.md).
 */
export function createIOStreams(parts: IOStreamsParts): IOStreams {
  const stdoutIsTTY = parts.stdoutIsTTY === true;
  const stderrIsTTY = parts.stderrIsTTY === true;
  const columns = parts.terminalColumns !== undefined && parts.terminalColumns > 0 ? parts.terminalColumns : undefined;
  const io: IOStreams = {
    get stdin() {
      return parts.stdin;
    },
    stdout: parts.stdout,
    stderr: parts.stderr,
    get stdinIsTTY() {
      return parts.stdinIsTTY === true;
    },
    stdoutIsTTY,
    stderrIsTTY,
    terminalColumns: stderrIsTTY || stdoutIsTTY ? columns : undefined,
    colorEnabled: stdoutIsTTY && parts.noColor !== true,
    // stderr first: a run whose stderr is not a terminal never needs stdin built to answer.
    canPrompt: () => stderrIsTTY && io.stdinIsTTY,
    terminalRows: (stdoutIsTTY || stderrIsTTY) && parts.terminalRows !== undefined && parts.terminalRows > 0 ? parts.terminalRows : undefined,
    // git's choice: less, quitting at once when the text fits (-F), colours kept (-R), the screen left as is (-X).
    pager: parts.pager ?? 'less -FRX',
  };
  return io;
}

/** Writes one line for a person on stderr, control characters shown visibly (it may quote a service or a file). */
export function writeLine(io: Pick<IOStreams, 'stderr'>, line: string): void {
  io.stderr.write(`${terminalSafe(line)}\n`);
}
