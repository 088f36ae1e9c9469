/**
 * Defaults of bulk and several-at-once runs, in one object: the `--help` text
 * (commands/options.ts, commands/tasks.ts) and the runs read the same values.
 * Plain data, so declaring the commands loads nothing else.
 */
export const BULK_DEFAULTS = {
  /** Records or ids per bulk request (`--batch-size`). */
  batchSize: 500,
  /** Bulk requests in flight at once (`--concurrency`). */
  concurrency: 4,
  /** Calls in flight at once where there is no bulk endpoint (one call per item): enough to hide latency, few enough to stay polite. */
  perItemConcurrency: 4,
} as const;

/** Defaults of `pla tasks watch`. */
export const WATCH_DEFAULTS = {
  /** Seconds between polls of a task (`--interval`). */
  intervalSeconds: 2,
  /** Tasks polled at once. */
  pollsAtOnce: 4,
} as const;
