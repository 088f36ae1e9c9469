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
  const unknown = summary.unknown > 0 ? `, outcome unknown ${count(summary.unknown)}` : '';
  const line = `${verb} ${count(summary.succeeded)}${split}, failed ${count(summary.failed)}${unknown}, skipped ${count(summary.skipped)} in ${duration(summary.elapsedMs)}`;
  const notes = [
    summary.interrupted ? 'interrupted' : '',
    summary.rejectsPath ? `rejects: ${summary.rejectsPath}` : '',
    summary.unknown > 0 && summary.unknownPath ? `outcome unknown: ${summary.unknownPath}` : '',
  ].filter(Boolean);
  return notes.length > 0 ? `${line} — ${notes.join(', ')}` : line;
}

/**
 * Records the service may or may not have carried out: not sent again blindly, so the
 * admin checks them first; against a service that keeps Idempotency-Keys a resume
 * with --retry-unsafe sends them under the keys they had.
 */
function unknownOutcome(summary: BulkSummary, alsoRefused: PartialFailureError | undefined): PartialFailureError {
  const { message, hint } = unknownOutcomeNote(summary);
  // Refusals are named too: the unknown outcome comes first, as the one to check before anything is sent again.
  return new PartialFailureError(alsoRefused ? `${message}; ${alsoRefused.message}` : message, { detail: summary, hint });
}

/** What to say of the records of unknown outcome of a run: a message and what to do. */
export function unknownOutcomeNote(summary: BulkSummary): { message: string; hint: string } {
  const file = summary.unknownPath ?? 'the unknown-outcome file';
  const resume = summary.checkpointPath
    ? `; where the service honours Idempotency-Key (pla server does), re-run with --checkpoint ${summary.checkpointPath} --retry-unsafe to resend them under the same keys`
    : '';
  return {
    message: `the outcome of ${count(summary.unknown)} ${summary.unknown === 1 ? 'record is' : 'records is'} unknown (the service may have carried them out): see ${file}`,
    hint: `check them with --plan --file ${file} before sending them again${resume}`,
  };
}

/** The error for a run where some items failed or input rows were unreadable (exit 9), else `undefined`. */
export function partialFailure(summary: BulkSummary): PartialFailureError | undefined {
  const refused = refusals(summary);
  return summary.unknown > 0 ? unknownOutcome(summary, refused) : refused;
}

/** The error for refused records or unreadable input rows, else `undefined`. */
function refusals(summary: BulkSummary): PartialFailureError | undefined {
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
