/**
 * The signals that stop a run in order, and what a run says when the first one
 * arrives: shared by the CLI (main.ts) and the help pages the launcher pages
 * without it (help-fast.ts), so a signal under the pager reads and ends the same
 * either way.
 */
import { EXIT_CODES } from '../errors.js';

/**
 * Each stopping signal with the exit code a shell gives a process it ended (128
 * + its number): Ctrl-C, a `kill`/CI cancel/container stop, a closed terminal or
 * SSH session. Each ends a run as Ctrl-C does: no new batch, those in flight
 * settled, the receipt closed as interrupted.
 */
export const STOPPING_SIGNALS = { SIGINT: EXIT_CODES.interrupted, SIGTERM: 143, SIGHUP: 129 } as const;
export type StoppingSignal = keyof typeof STOPPING_SIGNALS;
export const STOPPING_SIGNAL_NAMES: readonly StoppingSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The line on stderr when `signal` is the first stopping signal of a run. */
export function stoppingNotice(signal: StoppingSignal): string {
  const what = signal === 'SIGINT' ? 'interrupted' : `interrupted by ${signal}`;
  return `\n${what}: finishing what is in flight (Ctrl-C again to quit now)\n`;
}
