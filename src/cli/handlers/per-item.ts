/**
 * One call per item with a few in flight, for the operations that have no bulk
 * endpoint (notifications, e-mails, images). A single item's failure is thrown as
 * is (so a 404 still exits 4); refusals of some among several end in a partial
 * failure; anything else (auth, server, network) stops the run with its own code.
 */
import { isRecordRejection } from '../../bulk/split.js';
import { PartialFailureError } from '../../errors.js';

/** Calls in flight at once: enough to hide latency, few enough to stay polite. */
const DEFAULT_CONCURRENCY = 4;

export interface PerItemOptions {
  signal: AbortSignal;
  concurrency?: number;
  /** Told about each failure (a line on stderr). */
  onError: (label: string, error: unknown) => void;
}

export async function forEachItem<T>(
  items: AsyncIterable<T> | Iterable<T>,
  label: (item: T) => string,
  run: (item: T) => Promise<void>,
  options: PerItemOptions,
): Promise<void> {
  const limit = options.concurrency ?? DEFAULT_CONCURRENCY;
  const running = new Set<Promise<void>>();
  const failures: unknown[] = [];
  // A failure that is not about the item (a wrong key, the service down, the
  // network) would fail every other item too: stop starting new ones and exit
  // with its own code, as a bulk run does, not as a partial failure.
  let fatal: { error: unknown } | undefined;
  let total = 0;
  for await (const item of items) {
    if (options.signal.aborted || fatal) break;
    total += 1;
    const task: Promise<void> = run(item)
      .catch((error: unknown) => {
        failures.push(error);
        if (!isRecordRejection(error)) fatal ??= { error };
        options.onError(label(item), error);
      })
      .finally(() => running.delete(task));
    running.add(task);
    if (running.size >= limit) await Promise.race(running);
  }
  await Promise.all(running);
  if (fatal) throw fatal.error;
  if (failures.length === 0) return;
  if (total === 1) throw failures[0];
  throw new PartialFailureError(`${failures.length} of ${total} failed`);
}
