import { dirname, join } from 'node:path';
import { recordIdOf } from '../contract/ids.js';
import { operation } from '../contract/operations.js';
import { InterruptedError, ReceiptError, UsageError } from '../errors.js';
import { formatFromPath } from '../io/input/format.js';
import type { CsvDelimiter, SourceItem } from '../io/input/types.js';
import type { BadRowRelay, InputStats } from '../io/input/bad-rows.js';
import { toBatches, type Batch } from './batches.js';
import { newRunId } from '../runs/run-id.js';
import { Checkpoint, fingerprintOf } from './checkpoint.js';
import { BULK_DEFAULTS } from './defaults.js';
import { count } from './format-numbers.js';
import { InOrder } from './in-order.js';
import { TaskPool } from './pool.js';
import type { Progress } from './progress.js';
import { defaultRejectsPath, RejectsFile } from './rejects.js';
import { requestKey } from './request-key.js';
import { answerPerItem, sendWithSplit, withoutIds, withoutRepeatedCreates } from './split.js';
import type { BulkOptions, BulkSummary } from './types.js';

function positiveInteger(value: number | undefined, fallback: number, flag: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got ${String(value)}`);
  return n;
}

/**
 * Whether the service updated the record an accepted item named: it named an id
 * and the answer for it kept that id. An upsert naming an id the service does not
 * know creates a record under a new id: a create. Without an answer per item, a
 * record naming an id counts as updated.
 */
function updatedOne(item: SourceItem, answer: unknown): boolean {
  const named = recordIdOf((item.value as { id?: unknown } | null)?.id);
  if (named === 'none' || named === 'unreadable') return false;
  const answered = typeof answer === 'object' && answer !== null ? recordIdOf((answer as { id?: unknown }).id) : 'none';
  return answered === 'none' || answered === 'unreadable' || String(answered) === String(named);
}

/** Bad input rows the reader skipped, when the items come from `readRecords`/`readIds`. */
function badRowsOf(items: AsyncIterable<SourceItem>): number {
  const stats = (items as { stats?: InputStats }).stats;
  return stats?.badRows ?? 0;
}

/**
 * A receipt that could not be written, said with what the service may have done:
 * the run stopped before its next batch; what the service confirmed and the
 * receipt could not hold is in the unknown-outcome file; batches in flight are the
 * receipt's `sending` lines without a `settled` one.
 */
function receiptFailure(error: ReceiptError, summary: BulkSummary, run: string | undefined): ReceiptError {
  const unrecorded =
    summary.unrecorded > 0
      ? `; ${count(summary.unrecorded)} of them are not in the receipt: listed in ${summary.unknownPath ?? 'the unknown-outcome file'}`
      : '';
  return new ReceiptError(
    `${error.message}; the run stopped before its next batch. The service confirmed ${count(summary.succeeded)} record(s)${unrecorded}; nothing else was sent`,
    {
      cause: error,
      detail: summary,
      hint: `${run ? `pla runs show ${run}` : 'pla runs show last'} lists what the receipt holds (records, and batches sent whose answer it could not record); free space or make the folder writable before the next run`,
    },
  );
}

/** The summary so far of runs that stopped on an error, by that error. */
const stoppedRuns = new WeakMap<object, BulkSummary>();

/** What a run that stopped on `error` had done (its summary), when `error` stopped one. */
export function summaryOfStoppedRun(error: unknown): BulkSummary | undefined {
  return typeof error === 'object' && error !== null ? stoppedRuns.get(error) : undefined;
}

/**
 * Runs a bulk operation over a stream of records or ids: cuts it into batches,
 * sends up to `concurrency` at once, splits refused batches to find the bad items
 * (written to `rejectsPath` with their errors), records finished batches in
 * `checkpointPath` so a re-run skips them, and draws progress on a terminal.
 *
 * Partial failure is not an error here: the summary says how many failed and the
 * caller decides (see `partialFailure`). Errors that are not about the items
 * (auth, network, 5xx after retries) stop the run: batches in flight finish, the
 * checkpoint is written, and the first such error is thrown. Once `signal` aborts,
 * no new batch starts; in-flight ones finish, the checkpoint is written, and
 * `InterruptedError` is thrown (its `detail` is the summary so far).
 */
export async function runBulk(options: BulkOptions): Promise<BulkSummary> {
  const op = operation(options.operationId);
  if (op.body?.kind !== 'records' && op.body?.kind !== 'ids') throw new Error(`${op.id} is not a bulk operation`);
  const batchSize = positiveInteger(options.batchSize, BULK_DEFAULTS.batchSize, '--batch-size');
  const concurrency = positiveInteger(options.concurrency, BULK_DEFAULTS.concurrency, '--concurrency');
  const started = performance.now();

  const newId = options.runId ?? newRunId();
  const checkpoint = options.checkpointPath ? await Checkpoint.open(options.checkpointPath, { operationId: op.id, batchSize }, newId) : undefined;
  // A rejects file named .ndjson must hold ndjson whatever the input was: its
  // extension decides when it names a format, else the input's format does.
  const rejectsFormat = (options.rejectsPath ? formatFromPath(options.rejectsPath) : undefined) ?? options.rejectsFormat ?? 'ndjson';
  // A resumed run keeps the id it had: its batches go again under the keys they had.
  const runId = checkpoint?.runId ?? newId;
  // Always a rejects file: refused and unreadable rows are never only said on stderr.
  // Nothing is created until the first reject.
  // A resumed run keeps adding to the rejects of the run it resumes: named by the checkpoint's run.
  const defaultPath = options.runName
    ? defaultRejectsPath(checkpoint ? runId : options.runName, rejectsFormat, options.checkpointPath ?? options.inputPath, options.folder)
    : undefined;
  const rejectsPath = options.rejectsPath ?? defaultPath;
  // A csv's rejects are cut by the input's separator, once the reader has found it.
  const inputDelimiter = (options.items as { csvDelimiter?: () => CsvDelimiter | undefined }).csvDelimiter ?? (() => undefined);
  const rejects = rejectsPath ? new RejectsFile(rejectsPath, rejectsFormat, 'rejects file', inputDelimiter) : undefined;
  await rejects?.open(checkpoint?.resumed ?? false);
  // Batches an earlier run left of unknown outcome are sent again only with --retry-unsafe
  // (under the keys they had); then the file starts afresh, as they all go again.
  const resendUnknown = options.retryUnsafe === true;
  // By default beside the checkpoint or the rejects file (where the user keeps a run's files), else here.
  const beside = options.checkpointPath ?? options.rejectsPath;
  const unknownPath = options.unknownPath ?? join(beside ? dirname(beside) : (options.folder ?? '.'), `unknown-outcome-${runId}.${rejectsFormat}`);
  const unknownFile = new RejectsFile(unknownPath, formatFromPath(unknownPath) ?? rejectsFormat, 'unknown-outcome file', inputDelimiter);
  await unknownFile.open((checkpoint?.hasUnknown ?? false) && !resendUnknown);
  let bar: Progress | undefined;
  const warn = (line: string) => (bar ? bar.above(line) : options.warn?.(line));
  // Unreadable input rows: said as they are found, and kept in the rejects file.
  const badRows = (options.items as { badRows?: BadRowRelay }).badRows;
  const summary: BulkSummary = {
    operationId: op.id,
    succeeded: 0,
    created: 0,
    updated: 0,
    failed: 0,
    unknown: 0,
    unrecorded: 0,
    already: 0,
    skipped: 0,
    badRows: 0,
    repeats: 0,
    reasons: [],
    batches: 0,
    elapsedMs: 0,
    interrupted: false,
  };
  const reasons = new Map<string, number>();
  const countReason = (key: string) => reasons.set(key, (reasons.get(key) ?? 0) + 1);
  badRows?.listen((row) => {
    if (row.record) {
      // Read, but refused before sending (an id that is no id, an ambiguous duplicate): a failed record.
      warn(`refused line ${row.line}: ${row.message}`);
      summary.failed += 1;
      countReason(`refused by pla: ${row.message.replace(/'[^']*'|\d+/g, '#')}`);
      void rejects?.write([{ value: row.record, line: row.line, error: row.message }]);
      return;
    }
    warn(`skipped line ${row.line}: ${row.message}`);
    void rejects?.writeUnreadable(row);
  });

  let fatal: { error: unknown } | undefined;
  const stopping = () => fatal !== undefined || options.signal?.aborted === true;
  const tick = () => bar?.update(summary.succeeded + summary.failed + summary.skipped);
  const { onAnswers } = options;
  const answers = onAnswers ? new InOrder(onAnswers) : undefined;
  // Answers held behind a slow batch are bounded: no new batch starts past this many.
  const maxHeld = concurrency * 4;

  // The ids the service gave the records this run created.
  const createdIds = new Set<string>();
  const runBatch = async (batch: Batch): Promise<void> => {
    try {
      const screened = options.screen ? await options.screen(batch.items) : { send: batch.items, refused: [] };
      // Recorded before it is sent (the receipt): a failure to record it stops the run with nothing of this batch sent.
      if (screened.send.length > 0) await options.onSending?.(batch.index, screened.send);
      if (stopping()) return;
      const sent =
        screened.send.length > 0
          ? await sendWithSplit(options.client, op.id, screened.send, { part: String(batch.index), keyOf: (part, values) => requestKey(runId, part, values) })
          : { accepted: [], answers: [], rejected: [], unknown: [] };
      // A create answered with an id another record of this run was answered with confirms nothing.
      const once = op.body?.kind === 'records' ? withoutRepeatedCreates(sent.answers, createdIds, (item, result) => !updatedOne(item, result)) : undefined;
      const answered = once ? once.answers : sent.answers;
      const unknown = once ? [...sent.unknown, ...once.unknown] : sent.unknown;
      const accepted = once && once.unknown.length > 0 ? answered.flatMap((answer) => answer.items) : sent.accepted;
      const rejected = [...screened.refused, ...sent.rejected];
      summary.succeeded += accepted.length;
      summary.already += answered.reduce((sum, answer) => sum + (answer.already ? answer.items.length : 0), 0);
      if (op.body?.kind === 'records') {
        const updated = answerPerItem(answered).filter(({ item, result }) => updatedOne(item, result)).length;
        summary.updated += updated;
        summary.created += accepted.length - updated;
      }
      if (answered.length > 0) {
        try {
          await options.onAcknowledged?.(answered);
        } catch (error) {
          // Done by the service, not in the receipt: said item by item where the receipt cannot.
          // The record as the service answered it (with the id it gave) where it answered one per item.
          const done = answerPerItem(answered).map(({ item, result }) => ({
            value: typeof result === 'object' && result !== null ? result : item.value,
            line: item.line,
            error: `done (the service confirmed it), but not in the receipt: ${(error as Error).message}`,
          }));
          await unknownFile.write(done);
          summary.unrecorded += accepted.length;
          throw error;
        }
      }
      // The rejects and unknown outcomes are on disk before the checkpoint names the batch.
      if (rejected.length > 0) await rejects?.write(rejected);
      if (unknown.length > 0) {
        await unknownFile.write(unknown);
        await checkpoint?.markUnknown(batch.index);
      } else {
        await checkpoint?.markFinished(batch.index);
      }
      if (screened.send.length > 0)
        await options.onSettled?.(
          batch.index,
          unknown.map((item) => item.line),
        );
      summary.unknown += unknown.length;
      summary.failed += rejected.length;
      // Items refused before sending (screen) carry only their error: ids out, it groups as well.
      for (const { reason, error } of rejected) countReason(reason ?? withoutIds(error));
      summary.batches += 1;
      tick();
      await answers?.done(batch.index, answered);
    } catch (error) {
      fatal ??= { error };
    }
  };

  const pool = new TaskPool(concurrency);
  bar = await options.progress?.(options.total);
  try {
    for await (const batch of toBatches(options.items, batchSize)) {
      if (stopping()) break;
      if (batch.index === 0) checkpoint?.verify(fingerprintOf(batch.items));
      if (checkpoint?.has(batch.index)) {
        summary.skipped += batch.items.length;
        tick();
        await answers?.done(batch.index, []);
        continue;
      }
      if (checkpoint?.isUnknown(batch.index) && !resendUnknown) {
        // Already in the unknown-outcome file: still unknown, not sent blindly.
        summary.unknown += batch.items.length;
        tick();
        continue;
      }
      await pool.whenFree();
      if (answers) await pool.until(() => answers.held < maxHeld || stopping());
      if (stopping()) break;
      pool.start(() => runBatch(batch));
    }
  } finally {
    // However the loop ended (done, stopped, bad input), let in-flight batches land.
    await pool.drain();
    await answers?.flush().catch((error: unknown) => void (fatal ??= { error }));
    await checkpoint?.save();
    await rejects?.close();
    await unknownFile.close();
    bar?.finish();
  }

  summary.badRows = badRowsOf(options.items);
  summary.repeats = (options.items as { stats?: InputStats }).stats?.repeats ?? 0;
  summary.reasons = [...reasons].map(([reason, n]) => ({ reason, count: n })).sort((a, b) => b.count - a.count);
  summary.skipped += summary.badRows;
  summary.elapsedMs = Math.round(performance.now() - started);
  if (rejects?.written) summary.rejectsPath = rejects.path;
  if (unknownFile.written) summary.unknownPath = unknownFile.path;
  if (checkpoint) summary.checkpointPath = checkpoint.path;
  // A client sharing the abort signal cancels its requests in flight: that is the
  // interrupt itself, reported below with the summary, not a failure of its own.
  const interrupted = options.signal?.aborted === true;
  if (fatal && !(interrupted && fatal.error instanceof InterruptedError)) {
    const error = fatal.error instanceof ReceiptError ? receiptFailure(fatal.error, summary, options.runName) : fatal.error;
    if (typeof error === 'object' && error !== null) stoppedRuns.set(error, summary);
    throw error;
  }
  if (interrupted) {
    summary.interrupted = true;
    throw new InterruptedError(`interrupted after ${count(summary.batches)} batches (${count(summary.succeeded + summary.failed)} items) this run`, {
      detail: summary,
      hint: checkpoint ? `re-run the same command with --checkpoint ${checkpoint.path} to resume` : 'use --checkpoint <file> to be able to resume a run',
    });
  }
  // The whole input went through: a later run with this checkpoint would skip everything.
  // Kept while batches of unknown outcome remain: a resume with --retry-unsafe sends them.
  if (!checkpoint?.hasUnknown) await checkpoint?.remove();
  return summary;
}
