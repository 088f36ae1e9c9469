/**
 * A spinner on stderr while waiting for the service, only when stderr is a
 * terminal (ora is loaded only then, so scripts never pay for it).
 */
export interface Spinner {
  stop(): void;
}

const idle: Spinner = { stop() {} };

export async function startSpinner(text: string, enabled: boolean): Promise<Spinner> {
  if (!enabled) return idle;
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: process.stderr, discardStdin: false }).start();
  return { stop: () => spinner.stop() };
}
