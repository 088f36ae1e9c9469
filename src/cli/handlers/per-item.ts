/**
 * One call per item with a few in flight, for the operations that have no bulk
 * endpoint (notifications, e-mails, images). A single item's failure is thrown as
 * is (so a 404 still exits 4); failures among several end in a partial failure.
 */
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
  let total = 0;
  for await (const item of items) {
    if (options.signal.aborted) break;
    total += 1;
    const task: Promise<void> = run(item)
      .catch((error: unknown) => {
        failures.push(error);
        options.onError(label(item), error);
      })
      .finally(() => running.delete(task));
    running.add(task);
    if (running.size >= limit) await Promise.race(running);
  }
  await Promise.all(running);
  if (failures.length === 0) return;
  if (total === 1) throw failures[0];
  throw new PartialFailureError(`${failures.length} of ${total} failed`);
}
