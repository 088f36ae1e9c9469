/**
 * Entry point of the bundled CLI. The one place that turns a failure into an exit
 * code: handlers throw, this prints one line (`report-error.ts`) and sets
 * `process.exitCode`; `process.exit` is called only on a second Ctrl-C.
 */
import { type CompletionNode, completionTree } from '../completion/tree.js';
import { signalEchoExpected } from '../config/signal-echo.js';
import { EXIT_CODES, InterruptedError, OutputClosedError, exitCodeOf } from '../errors.js';
import { interrupt, interruptSignal } from './interrupt.js';
import { CommanderError, commanderExitCode, createProgram } from './program.js';
import { formatError } from './report-error.js';

/** Set on the first Ctrl-C when when-exit (loaded with conf) will send the signal once more. */
let echoPending = false;

function onSigint(): void {
  if (interruptSignal.aborted) {
    if (echoPending) {
      echoPending = false;
      return;
    }
    process.exit(EXIT_CODES.interrupted);
  }
  echoPending = signalEchoExpected();
  process.stderr.write('\ninterrupted: finishing what is in flight (Ctrl-C again to quit now)\n');
  interrupt();
}

/** Keys given on the command line or in the environment, to mask in error output. */
function knownKeys(argv: string[]): string[] {
  const keys = argv.filter((a) => a.startsWith('--api-key=')).map((a) => a.slice('--api-key='.length));
  const at = argv.indexOf('--api-key');
  if (at !== -1 && argv[at + 1]) keys.push(argv[at + 1] as string);
  if (process.env.PLA_API_KEY) keys.push(process.env.PLA_API_KEY);
  return keys;
}

/** The whole command tree as completion data; the build writes it to dist/completion-tree.json. */
export function completionData(): CompletionNode {
  return completionTree(createProgram());
}

/** Runs `pla` with `argv` (as `process.argv`). */
export async function main(argv: string[]): Promise<void> {
  process.on('SIGINT', onSigint);
  // A closed pipe surfaces as OutputClosedError from the writers; without a
  // listener the stream's EPIPE 'error' event would crash the process instead.
  process.stdout.on('error', () => {});
  try {
    await createProgram(argv).parseAsync(argv);
    if (interruptSignal.aborted) process.exitCode = EXIT_CODES.interrupted;
  } catch (error) {
    if (error instanceof OutputClosedError) return;
    if (error instanceof CommanderError) {
      process.exitCode = commanderExitCode(error);
      return;
    }
    const interrupted = interruptSignal.aborted && !(error instanceof InterruptedError);
    const reported = interrupted ? new InterruptedError('interrupted', { cause: error }) : error;
    const verbose = argv.includes('--verbose');
    process.stderr.write(formatError(reported, { verbose, secrets: knownKeys(argv) }));
    process.exitCode = exitCodeOf(reported);
  } finally {
    process.off('SIGINT', onSigint);
  }
}
