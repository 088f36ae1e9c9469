/**
 * One call per item with a few in flight, for the operations that have no bulk
 * endpoint (notifications, e-mails, images). A single item's failure is thrown as
 * is (so a 404 still exits 4); refusals of some among several end in a partial
 * failure; anything else (auth, server, network) stops the run with its own code.
 */
import { BULK_DEFAULTS } from '../../bulk/defaults.js';
import { TaskPool } from '../../bulk/pool.js';
import { isRecordRejection } from '../../bulk/record-rejection.js';
import { PartialFailureError } from '../../errors.js';
import { terminalSafe } from '../../io/terminal-text.js';

export interface PerItemOptions {
  signal: AbortSignal;
  /** Where each failure is reported by default: `id 7: 404 Not Found …`. */
  stderr: NodeJS.WritableStream;
  /** Told about each failure instead of the line on `stderr`. */
  onError?: (label: string, error: unknown) => void;
}

/** Runs `run` on every item, a few at a time; see the module comment for how failures end. */
export async function forEachItem<T>(
  items: AsyncIterable<T> | Iterable<T>,
  label: (item: T) => string,
  run: (item: T) => Promise<void>,
  options: PerItemOptions,
): Promise<void> {
  const onError = options.onError ?? ((label: string, error: unknown) => options.stderr.write(`${terminalSafe(`${label}: ${(error as Error).message}`)}\n`));
  const pool = new TaskPool(BULK_DEFAULTS.perItemConcurrency);
  const failures: unknown[] = [];
  // A failure that is not about the item (a wrong key, the service down, the
  // network) would fail every other item too: stop starting new ones and exit
  // with its own code, as a bulk run does, not as a partial failure.
  let fatal: { error: unknown } | undefined;
  const stopping = () => options.signal.aborted || fatal !== undefined;
  let total = 0;
  for await (const item of items) {
    if (stopping()) break;
    await pool.whenFree();
    if (stopping()) break;
    total += 1;
    pool.start(() =>
      run(item).catch((error: unknown) => {
        failures.push(error);
        if (!isRecordRejection(error)) fatal ??= { error };
        onError(label(item), error);
      }),
    );
  }
  await pool.drain();
  if (fatal) throw fatal.error;
  if (failures.length === 0) return;
  if (total === 1) throw failures[0];
  throw new PartialFailureError(`${failures.length} of ${total} failed`);
}
