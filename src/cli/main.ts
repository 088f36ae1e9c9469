/**
 * Entry point of the bundled CLI. The one place that turns a failure into an exit
 * code: handlers throw, `runPla` prints one line (`report-error.ts`) and returns
 * the code. `main` is the only code that touches the process: it builds the IO
 * object from it (system-io.ts), reads its environment, listens for Ctrl-C,
 * SIGTERM and SIGHUP, sets `process.exitCode`, and calls `process.exit` only on a
 * second such signal. `runPla`
 * keeps nothing between runs: tests run it many times in one process.
 */
import { type CompletionNode, completionTree } from '../completion/tree.js';
import { signalEchoExpected } from '../config/signal-echo.js';
import { EXIT_CODES, InterruptedError, OutputClosedError, exitCodeOf } from '../errors.js';
import type { IOStreams } from '../io/streams.js';
import type { HelpIndex, HelpPage } from './help-layout.js';
import type { Environment, RunSurroundings } from './invocation.js';
import { CommanderError, commanderExitCode, createProgram, releaseHeldOutput } from './program.js';
import { formatError } from './report-error.js';
import { systemIO } from './system-io.js';
import { STOPPING_SIGNALS, STOPPING_SIGNAL_NAMES, type StoppingSignal, stoppingNotice } from './stopping-signals.js';

/** Keys (and proxy and store passwords) given on the command line or in the environment, to mask in error output. */
function knownKeys(argv: string[], env: Environment): string[] {
  const keys = argv.filter((a) => a.startsWith('--api-key=')).map((a) => a.slice('--api-key='.length));
  const at = argv.indexOf('--api-key');
  if (at !== -1 && argv[at + 1]) keys.push(argv[at + 1] as string);
  if (env.PLA_API_KEY) keys.push(env.PLA_API_KEY);
  // Proxy and store passwords too, should any message quote such a URL whole.
  for (const name of ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'PLA_STORE_URL']) {
    const password = /^[a-z][a-z0-9+.-]*:\/\/[^:@/]*:([^/]*)@/i.exec(env[name] ?? '')?.[1];
    if (password) keys.push(password, decodeURIComponent(password));
  }
  return keys;
}

/** Whether `signal` was aborted by SIGTERM or SIGHUP (main passes the signal's name as the reason). */
function stoppedAsAsked(signal: AbortSignal): boolean {
  return signal.reason === 'SIGTERM' || signal.reason === 'SIGHUP';
}

/** The whole command tree as completion data; the build writes it to dist/completion-tree.json. */
export function completionData(): CompletionNode {
  return completionTree(createProgram(systemIO()));
}

/** Every help page as data, by file name; the build writes them to dist/help/ for bin/pla.js (help-capture.ts, loaded only then). */
export async function helpData(): Promise<Map<string, HelpIndex | HelpPage>> {
  return (await import('./help-capture.js')).captureHelp();
}

/**
 * Runs `pla` with `argv` (as `process.argv`) on `io` in `surroundings` (default:
 * the process's environment variables, no Ctrl-C, the working folder), and
 * returns the exit code. Tests call it in-process with an IO object over buffers.
 */
export async function runPla(argv: string[], io: IOStreams, surroundings: RunSurroundings = {}): Promise<number> {
  const env = surroundings.env ?? process.env;
  // Each run its own signal: one run's Ctrl-C never reaches another.
  const signal = surroundings.signal ?? new AbortController().signal;
  try {
    await createProgram(io, argv, { ...surroundings, env, signal }).parseAsync(argv);
    await releaseHeldOutput(io);
    // A command that ended in order on SIGTERM or SIGHUP (a server shutting down,
    // a watch stopped) did what was asked: 0. A run cut short throws InterruptedError.
    return signal.aborted && !stoppedAsAsked(signal) ? EXIT_CODES.interrupted : EXIT_CODES.ok;
  } catch (error) {
    if (error instanceof OutputClosedError) return EXIT_CODES.ok;
    await releaseHeldOutput(io);
    if (error instanceof CommanderError) return commanderExitCode(error);
    const interrupted = signal.aborted && !(error instanceof InterruptedError);
    const reported = interrupted ? new InterruptedError('interrupted', { cause: error }) : (await import('./edge-errors.js')).atTheEdge(error);
    const keyFrom = argv.includes('--api-key') ? 'flag' : env.PLA_API_KEY ? 'env-var' : undefined;
    io.stderr.write(formatError(reported, { verbose: argv.includes('--verbose'), secrets: knownKeys(argv, env), keyFrom }));
    return exitCodeOf(reported);
  }
}

/** Runs `pla` as the process: `argv` is `process.argv`. */
export async function main(argv: string[]): Promise<void> {
  const io = systemIO();
  const interrupt = new AbortController();
  /** The first stopping signal received. */
  let stoppedBy: StoppingSignal | undefined;
  /** Set on the first signal when when-exit (loaded with conf) will send the signal once more. */
  let echoPending = false;
  const onSignal = (signal: StoppingSignal): void => {
    if (stoppedBy) {
      if (echoPending) {
        echoPending = false;
        return;
      }
      process.exit(STOPPING_SIGNALS[stoppedBy]);
    }
    stoppedBy = signal;
    echoPending = signalEchoExpected();
    io.stderr.write(stoppingNotice(signal));
    interrupt.abort(signal);
  };
  const listeners = STOPPING_SIGNAL_NAMES.map((signal) => {
    const listener = () => onSignal(signal);
    process.on(signal, listener);
    return () => process.off(signal, listener);
  });
  // A closed pipe surfaces as OutputClosedError from the writers; without a
  // listener the stream's EPIPE 'error' event would crash the process instead.
  io.stdout.on('error', () => {});
  // A terminal closed under the run (SIGHUP) fails writes to it: the run still winds down in order.
  io.stderr.on('error', () => {});
  try {
    const code = await runPla(argv, io, { env: process.env, signal: interrupt.signal, cwd: '.' });
    process.exitCode = code === EXIT_CODES.interrupted && stoppedBy ? STOPPING_SIGNALS[stoppedBy] : code;
  } finally {
    for (const stopListening of listeners) stopListening();
  }
}
