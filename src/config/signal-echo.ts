/**
 * conf writes through atomically, which loads when-exit: on the first SIGINT or
 * SIGTERM it cleans up its temp files and then sends the same signal to the
 * process again. That echo is not the user pressing Ctrl-C a second time, so the
 * CLI's "second Ctrl-C quits at once" rule must let exactly one pass.
 *
 * A module of its own with no imports: `main.ts` reads it on every run.
 */
let confLoaded = false;

/** Called once conf (and with it when-exit) has been imported. */
export function noteConfLoaded(): void {
  confLoaded = true;
}

/** True when a signal will be echoed once by when-exit. */
export function signalEchoExpected(): boolean {
  return confLoaded;
}
