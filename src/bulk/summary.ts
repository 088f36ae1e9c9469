import { operation, type OperationId } from '../contract/operations.js';
import { PartialFailureError } from '../errors.js';
import { count, duration } from './format-numbers.js';
import type { BulkSummary } from './types.js';

/** `determinations.upsertBulk` → "upserted": the past tense its contract row gives. */
function verbOf(operationId: OperationId): string {
  return operation(operationId).done ?? 'done';
}

/**
 * One human line: `upserted 9,998 (created 9,000, updated 998), failed 2,
 * skipped 0 in 1.2 s — rejects: rejects.ndjson`.
 */
export function formatSummary(summary: BulkSummary): string {
  const verb = verbOf(summary.operationId);
  const split = verb === 'upserted' ? ` (created ${count(summary.created)}, updated ${count(summary.updated)})` : '';
  const line = `${verb} ${count(summary.succeeded)}${split}, failed ${count(summary.failed)}, skipped ${count(summary.skipped)} in ${duration(summary.elapsedMs)}`;
  const notes = [summary.interrupted ? 'interrupted' : '', summary.rejectsPath ? `rejects: ${summary.rejectsPath}` : ''].filter(Boolean);
  return notes.length > 0 ? `${line} — ${notes.join(', ')}` : line;
}

/** The error for a run where some items failed or input rows were unreadable (exit 9), else `undefined`. */
export function partialFailure(summary: BulkSummary): PartialFailureError | undefined {
  // Unreadable input rows are records that did not arrive either: a script that
  // only checks the exit code must learn of them (each was reported with its line).
  if (summary.failed === 0 && summary.badRows > 0) {
    return new PartialFailureError(`${count(summary.badRows)} input ${summary.badRows === 1 ? 'row was' : 'rows were'} unreadable and skipped (lines reported above)`, {
      detail: summary,
      hint: 'fix those lines and run again; --strict stops at the first bad row instead',
    });
  }
  if (summary.failed === 0) return undefined;
  const where = summary.rejectsPath ? `: see ${summary.rejectsPath}` : '';
  return new PartialFailureError(`${count(summary.failed)} of ${count(summary.failed + summary.succeeded)} failed${where}`, {
    detail: summary,
    hint: summary.rejectsPath ? `fix the records in ${summary.rejectsPath} and feed it back with --file (the _error column is ignored)` : 'use --rejects <file> to keep the failed records with their errors',
  });
}
