/**
 * Ctrl-C turns into an aborted signal that every handler receives: requests in
 * flight are cancelled, bulk runs stop starting batches and write their checkpoint,
 * and the run ends with exit code 130.
 */
const controller = new AbortController();

/** Aborted on the first Ctrl-C. */
export const interruptSignal: AbortSignal = controller.signal;

/** Called by the SIGINT listener in `main.ts`. */
export function interrupt(): void {
  controller.abort();
}
