/**
 * The bulk runner: `runBulk` drives a stream of records or ids through a bulk
 * operation; `formatSummary` and `partialFailure` turn its summary into a line and
 * an exit code. `watchTasks` (in `watch.ts`) follows transfer tasks to their end.
 */
export { runBulk, summaryOfStoppedRun } from './run-bulk.js';
export { formatSummary, partialFailure, unknownOutcomeNote } from './summary.js';
export type { BulkOptions, BulkSummary } from './types.js';
