import { operation, type OperationId } from '../contract/operations.js';
import { PartialFailureError } from '../errors.js';
import { count, duration } from './format-numbers.js';
import type { BulkSummary } from './types.js';

/** `determinations.upsertBulk` → "upserted": the past tense its contract row gives. */
function verbOf(operationId: OperationId): string {
  return operation(operationId).done ?? 'done';
}

/** Reasons shown one a line; the rest are summed up in one more. */
const MAX_REASONS = 5;

/** The lines under the summary: failures grouped by reason with counts, then unreadable rows. */
function reasonLines(summary: BulkSummary): string[] {
  const lines = summary.reasons.slice(0, MAX_REASONS).map(({ reason, count: n }) => `  ${count(n)} refused: ${reason}`);
  const rest = summary.reasons.slice(MAX_REASONS);
  if (rest.length > 0) {
    const items = rest.reduce((sum, r) => sum + r.count, 0);
    lines.push(`  ${count(items)} refused for ${count(rest.length)} other reasons (see the rejects' _error)`);
  }
  if (summary.repeats > 0)
    lines.push(
      `  ${count(summary.repeats)} ${summary.repeats === 1 ? 'row repeated' : 'rows repeated'} an earlier one exactly (same id and values): sent once`,
    );
  if (summary.replayed > 0)
    lines.push(`  ${count(summary.replayed)} replayed: carried out by the earlier, stopped run; the service answered them again under their Idempotency-Keys`);
  if (summary.unrecorded > 0)
    lines.push(
      `  ${count(summary.unrecorded)} confirmed by the service but not in the receipt (listed in ${summary.unknownPath ?? 'the unknown-outcome file'})`,
    );
  if (summary.badRows > 0) {
    const where = summary.rejectsPath ? 'in the rejects file with their lines' : 'reported above with their lines';
    lines.push(`  ${count(summary.badRows)} unreadable input ${summary.badRows === 1 ? 'row' : 'rows'} (${where})`);
  }
  return lines;
}

/**
 * The summary for a person: `upserted 9,998 (created 9,000, updated 998), failed
 * 2, skipped 0 in 1.2 s — rejects: rejects.ndjson`, then a line per reason the
 * service gave (`  2 refused: 400 status: BOGUS`) and for unreadable input rows.
 */
export function formatSummary(summary: BulkSummary): string {
  const verb = verbOf(summary.operationId);
  // A delete's "already" is an id not found: said as found, not as a delete this run did.
  const alreadyAs = verb === 'deleted' ? 'already gone (not found)' : `already ${verb}`;
  const already = summary.already > 0 ? ` (${count(summary.already)} of them ${alreadyAs})` : '';
  const split = verb === 'upserted' ? ` (created ${count(summary.created)}, updated ${count(summary.updated)})` : already;
  const unknown = summary.unknown > 0 ? `, outcome unknown ${count(summary.unknown)}` : '';
  // Replays were carried out by an earlier run: not counted again as this run's.
  const replayed = summary.replayed > 0 ? `, replayed ${count(summary.replayed)}` : '';
  const line = `${verb} ${count(summary.succeeded - summary.replayed)}${split}${replayed}, failed ${count(summary.failed)}${unknown}, skipped ${count(summary.skipped)} in ${duration(summary.elapsedMs)}`;
  const notes = [
    summary.interrupted ? 'interrupted' : '',
    summary.rejectsPath ? `rejects: ${summary.rejectsPath}` : '',
    summary.unknown > 0 && summary.unknownPath ? `outcome unknown: ${summary.unknownPath}` : '',
  ].filter(Boolean);
  return [notes.length > 0 ? `${line} — ${notes.join(', ')}` : line, ...reasonLines(summary)].join('\n');
}

/** The flag that feeds a fixed rejects file back into the same command: ids go in with --ids-file, records with --file. */
function feedBackFlag(operationId: OperationId): string {
  return operation(operationId).body?.kind === 'ids' ? '--ids-file' : '--file';
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
  const path = summary.rejectsPath;
  const feedBack = path ? `feed it back with ${feedBackFlag(summary.operationId)} ${path} (the _error, _line and _raw columns are ignored)` : '';
  // Unreadable input rows are records that did not arrive either: a script that
  // only checks the exit code must learn of them.
  if (summary.failed === 0 && summary.badRows > 0) {
    return new PartialFailureError(`${count(summary.badRows)} input ${summary.badRows === 1 ? 'row was' : 'rows were'} unreadable and skipped`, {
      detail: summary,
      hint: path
        ? `write each fixed record in place of its _raw in ${path}, then ${feedBack}; --strict stops at the first bad row instead`
        : 'fix those lines and run again; --rejects <file> keeps them with their line numbers, --strict stops at the first',
    });
  }
  if (summary.failed === 0) return undefined;
  const where = path ? `: see ${path}` : '';
  return new PartialFailureError(`${count(summary.failed)} of ${count(summary.failed + summary.succeeded)} failed${where}`, {
    detail: summary,
    hint: path ? `fix them in ${path} and ${feedBack}` : 'use --rejects <file> to keep the failed items with their errors',
  });
}
