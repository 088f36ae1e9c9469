/**
 * The IO object of a real run, made from the process's streams. The one module of
 * the CLI that reads `process.stdin/stdout/stderr` and their terminal flags: every
 * other one gets them from the command context (src/io/streams.ts).
 */
import { createIOStreams, type IOStreams } from '../io/streams.js';

/** The process's streams, terminal flags, width and NO_COLOR. */
export function systemIO(): IOStreams {
  const { stdout, stderr } = process;
  return createIOStreams({
    // Getters: process.stdin is built on first touch, which only commands that read input need.
    get stdin() {
      return process.stdin;
    },
    stdout,
    stderr,
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    stdoutIsTTY: stdout.isTTY === true,
    stderrIsTTY: stderr.isTTY === true,
    terminalColumns: (stderr.isTTY ? stderr.columns : undefined) ?? (stdout.isTTY ? stdout.columns : undefined),
    terminalRows: (stdout.isTTY ? stdout.rows : undefined) ?? (stderr.isTTY ? stderr.rows : undefined),
    ...(process.env.PAGER !== undefined ? { pager: process.env.PAGER } : {}),
    noColor: Boolean(process.env.NO_COLOR),
  });
}
