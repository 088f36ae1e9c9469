/**
 * A spinner on stderr while waiting for the service, only when stderr is a
 * terminal (ora is loaded only then, so scripts never pay for it).
 */
import { terminalSafe } from '../../contract/terminal-text.js';

export interface Spinner {
  /** Replaces the line next to the spinner. */
  update(text: string): void;
  /** Stops and leaves a ✔ line (a ✖ line with `failed`), or nothing with `stop`. */
  succeed(text: string): void;
  fail(): void;
  stop(): void;
}

const idle: Spinner = { update() {}, succeed() {}, fail() {}, stop() {} };

/**
 * A terminal that reports no width (a pty opened without a size: `docker exec -t`,
 * `script`, some CI runners) cannot host a spinner: ora divides by the width to
 * count the lines it must clear, and with 0 clears lines forever.
 */
function hasWidth(stream: NodeJS.WritableStream): boolean {
  const { columns } = stream as { columns?: number };
  return columns === undefined || columns > 0;
}

/** Starts a spinner on `stream` (stderr) when `enabled`; otherwise one that does nothing. */
export async function startSpinner(text: string, enabled: boolean, stream: NodeJS.WritableStream): Promise<Spinner> {
  if (!enabled || !hasWidth(stream)) return idle;
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream, discardStdin: false }).start();
  return {
    // Its text may quote the service (task statuses): shown, never obeyed, by the terminal.
    update: (next) => {
      spinner.text = terminalSafe(next);
    },
    succeed: (done) => spinner.succeed(terminalSafe(done)),
    fail: () => spinner.fail(),
    stop: () => spinner.stop(),
  };
}
