/**
 * An IO object over buffers, with the terminal flags a test chooses: drives a
 * handler (or the whole program, `runPla`) in-process, the way gh's tests use
 * `iostreams.Test()`.
 */
import { PassThrough } from 'node:stream';
import { createIOStreams, type IOStreams } from '../../src/io/streams.js';

export interface FakeIO {
  io: IOStreams;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
}

export interface FakeIOOptions {
  /** Text on stdin (ended after it); default none. */
  input?: string;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  terminalColumns?: number;
  noColor?: boolean;
  /** `$PAGER` as set. */
  pager?: string;
}

function collector(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** A fresh fake IO; every flag defaults to "not a terminal". */
export function fakeIO(options: FakeIOOptions = {}): FakeIO {
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const out = collector();
  const err = collector();
  const io = createIOStreams({ ...options, stdin, stdout: out.stream, stderr: err.stream });
  return { io, stdout: out.text, stderr: err.text };
}
