import { dirname, join, resolve } from 'node:path';
import { recordIdOf } from '../contract/ids.js';
import { operation } from '../contract/operations.js';
import { CheckpointError, InterruptedError, ReceiptError, UsageError } from '../errors.js';
import { formatFromPath } from '../io/input/format.js';
import type { CsvDelimiter, SheetForm, SourceItem } from '../io/input/types.js';
import type { BadRowRelay, InputStats } from '../io/input/bad-rows.js';
import { toBatches, type Batch } from './batches.js';
import { newRunId } from '../runs/run-id.js';
import { Checkpoint, fingerprintOf } from './checkpoint.js';
import { safeToRepeat } from '../client/retry-policy.js';
import { BULK_DEFAULTS } from './defaults.js';
import { count } from './format-numbers.js';
import { InOrder } from './in-order.js';
import { TaskPool } from './pool.js';
import type { Progress } from './progress.js';
import { defaultRejectsPath, RejectsFile } from './rejects.js';
import { requestKey } from './request-key.js';
import { answerPerItem, isReplayed, safeToSendAgain, sendWithSplit, withoutIds, withoutRepeatedCreates } from './split.js';
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
function receiptFailure(error: ReceiptError, summary: BulkSummary, run: string | undefined, rerun: string | undefined): ReceiptError {
  const unrecorded =
    summary.unrecorded > 0
      ? `; ${count(summary.unrecorded)} of them are not in the receipt: listed in ${summary.unknownPath ?? 'the unknown-outcome file'}`
      : '';
  const Stopped = error instanceof CheckpointError ? CheckpointError : ReceiptError;
  const finish = rerun ? `, then finish the job with: ${rerun} (batches done are skipped, none is sent twice)` : ' before the next run';
  return new Stopped(
    `${error.message}; the run stopped before its next batch. The service confirmed ${count(summary.succeeded)} record(s)${unrecorded}; nothing else was sent`,
    {
      cause: error,
      detail: summary,
      hint: `${run ? `pla runs show ${run}` : 'pla runs show last'} lists what the receipt holds (records, and batches sent whose answer it could not record); free space or make the folder writable${finish}`,
    },
  );
}

/** What a finished run did, as its checkpoint keeps it: its last attempt's summary, counts that are not zero. */
function finishedCounts(summary: BulkSummary): Record<string, number> {
  const verb = operation(summary.operationId).done ?? 'done';
  const counts: Record<string, number> = { [verb]: summary.succeeded - summary.replayed };
  if (summary.replayed > 0) counts.replayed = summary.replayed;
  if (summary.failed > 0) counts.failed = summary.failed;
  // Done by earlier attempts of the run (its batches the checkpoint had), and unreadable rows.
  if (summary.skipped > 0) counts.skipped = summary.skipped;
  return counts;
}

/** A checkpoint that cannot be written before the first request: the run stops there. */
function nothingSent(error: unknown): never {
  if (!(error instanceof CheckpointError)) throw error;
  throw new CheckpointError(`${error.message}; nothing was sent`, { cause: error, hint: 'free some space or make the folder writable, then run again' });
}

/** A rejects or unknown-outcome file that is the input itself would be read while written to: refused. */
function refuseInputAsOutput(file: RejectsFile, inputPath: string | undefined): void {
  if (inputPath !== undefined && resolve(inputPath) === resolve(file.path))
    throw new UsageError(`the ${file.what} ${file.path} is the input file: it would be added to while it is read`, {
      hint: 'name another file for it (--rejects / --unknown-outcome)',
    });
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
 * (written to `rejectsPath` with their errors), and draws progress on a terminal.
 * Its checkpoint (`checkpointPath`, else `autoCheckpointPath`) is on disk before the
 * first request and names each batch as sending before it is sent, finished or
 * unknown once settled, so a rerun after any stop skips what is done, sends again
 * only what is harmless to repeat (or `retryUnsafe`), and lists the rest as of
 * unknown outcome; a run that went through its input is refused unless `force`.
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

  // The checkpoint is on disk before anything is sent: the run's id (every
  // Idempotency-Key derives from it) survives any stop, kill -9 included.
  const checkpointPath = options.checkpointPath ?? options.autoCheckpointPath;
  const checkpoint = checkpointPath
    ? await Checkpoint.open(checkpointPath, { operationId: op.id, batchSize, runId: options.runId ?? newRunId(), force: options.force === true }).catch(
        nothingSent,
      )
    : undefined;
  // A rerun keeps the id it had: its batches go again under the keys they had.
  const runId = checkpoint?.runId ?? options.runId ?? newRunId();
  // A rerun keeps writing to the files of the run it finishes, unless told others.
  const earlierFiles = checkpoint?.files ?? {};
  const chosenRejects = options.rejectsPath ?? earlierFiles.rejects;
  // A rejects file named .ndjson must hold ndjson whatever the input was: its
  // extension decides when it names a format, else the input's format does.
  const rejectsFormat = (chosenRejects ? formatFromPath(chosenRejects) : undefined) ?? options.rejectsFormat ?? 'ndjson';
  // Always a rejects file: refused and unreadable rows are never only said on stderr.
  // Nothing is created until the first reject. Named by the run (kept across reruns).
  const defaultPath = options.runName
    ? defaultRejectsPath(options.checkpointPath ? runId : options.runName, rejectsFormat, options.checkpointPath ?? options.inputPath, options.folder)
    : undefined;
  const rejectsPath = chosenRejects ?? defaultPath;
  // A csv's rejects are cut by the input's separator, once the reader has found it.
  const inputDelimiter = (options.items as { csvDelimiter?: () => CsvDelimiter | undefined }).csvDelimiter ?? (() => undefined);
  const sheetForm = (options.items as { sheetForm?: () => SheetForm | undefined }).sheetForm ?? (() => undefined);
  const rejects = rejectsPath ? new RejectsFile(rejectsPath, rejectsFormat, 'rejects file', inputDelimiter, sheetForm) : undefined;
  // Batches an earlier run left of unknown outcome are sent again only with --retry-unsafe (under the keys they had).
  const resendUnknown = options.retryUnsafe === true;
  // By default beside the checkpoint the user named or the rejects file (where the user keeps a run's files), else here.
  const beside = options.checkpointPath ?? options.rejectsPath;
  const unknownPath =
    options.unknownPath ?? earlierFiles.unknown ?? join(beside ? dirname(beside) : (options.folder ?? '.'), `unknown-outcome-${runId}.${rejectsFormat}`);
  const unknownFile = new RejectsFile(unknownPath, formatFromPath(unknownPath) ?? rejectsFormat, 'unknown-outcome file', inputDelimiter, sheetForm);
  for (const file of [rejects, unknownFile]) if (file) refuseInputAsOutput(file, options.inputPath);
  let bar: Progress | undefined;
  const warn = (line: string) => (bar ? bar.above(line) : options.warn?.(line));
  // Never deleted nor replaced: rows an earlier run wrote there are kept, and added to.
  for (const file of [rejects, unknownFile]) {
    const earlierRows = await file?.open();
    if (file && earlierRows && !checkpoint?.resumed) warn(`adding to the ${file.what} ${file.path}: it holds rows of an earlier run, kept`);
  }
  await checkpoint?.keepFiles({ ...(rejectsPath ? { rejects: rejectsPath } : {}), unknown: unknownPath }).catch(nothingSent);
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
    replayed: 0,
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
      void rejects?.write([{ value: row.record, line: row.line, error: row.message, ...(row.row ? { row: row.row } : {}) }]);
      return;
    }
    warn(`skipped line ${row.line}: ${row.message}`);
    void rejects?.writeUnreadable(row);
  });

  let fatal: { error: unknown } | undefined;
  const stopping = () => fatal !== undefined || options.signal?.aborted === true;
  // Items of batches still in flight that have settled already (a refused batch being split): the bar moves with them.
  let settling = 0;
  const tick = () => bar?.update(summary.succeeded + summary.failed + summary.skipped + settling);
  const { onAnswers } = options;
  const answers = onAnswers ? new InOrder(onAnswers) : undefined;
  // Answers held behind a slow batch are bounded: no new batch starts past this many.
  const maxHeld = concurrency * 4;

  // The ids the service gave the records this run created.
  const createdIds = new Set<string>();
  const runBatch = async (batch: Batch): Promise<void> => {
    try {
      const screened = options.screen ? await options.screen(batch.items) : { send: batch.items, refused: [] };
      // Recorded before it is sent (the receipt, then the checkpoint): a failure to record it stops the run with nothing of this batch sent.
      if (screened.send.length > 0) {
        await options.onSending?.(batch.index, screened.send);
        await checkpoint?.markSending(batch.index);
      }
      if (stopping()) return await checkpoint?.notSent(batch.index);
      let settledEarly = 0;
      const onSettled = (items: number) => {
        settledEarly += items;
        settling += items;
        tick();
      };
      const keys = { part: String(batch.index), keyOf: (part: string, values: unknown[]) => requestKey(runId, part, values) };
      const sent =
        screened.send.length > 0
          ? await sendWithSplit(options.client, op.id, screened.send, keys, onSettled, {
              // Ids an earlier attempt sent and heard nothing back for: gone may be its doing.
              goneIsDone: options.goneIsDone === true || checkpoint?.wasInFlight(batch.index) === true,
            })
          : { accepted: [], answers: [], rejected: [], unknown: [] };
      settling -= settledEarly;
      // A create answered with an id another record of this run was answered with confirms nothing.
      const once = op.body?.kind === 'records' ? withoutRepeatedCreates(sent.answers, createdIds, (item, result) => !updatedOne(item, result)) : undefined;
      const answered = once ? once.answers : sent.answers;
      const unknown = once ? [...sent.unknown, ...once.unknown] : sent.unknown;
      const accepted = once && once.unknown.length > 0 ? answered.flatMap((answer) => answer.items) : sent.accepted;
      const rejected = [...screened.refused, ...sent.rejected];
      summary.succeeded += accepted.length;
      // Answered again under their Idempotency-Keys: carried out by the run stopped earlier, not by this one.
      const replayed = answered.filter((answer) => isReplayed(answer.result));
      const fresh = answered.filter((answer) => !isReplayed(answer.result));
      summary.replayed += replayed.reduce((sum, answer) => sum + answer.items.length, 0);
      summary.already += answered.reduce((sum, answer) => sum + (answer.already ? answer.items.length : 0), 0);
      if (op.body?.kind === 'records') {
        const perItem = answerPerItem(fresh);
        const updated = perItem.filter(({ item, result }) => updatedOne(item, result)).length;
        summary.updated += updated;
        summary.created += perItem.length - updated;
      }
      // The rejects and unknown outcomes are on disk before the checkpoint names the batch.
      if (rejected.length > 0) await rejects?.write(rejected);
      if (unknown.length > 0) await unknownFile.write(unknown);
      summary.unknown += unknown.length;
      summary.failed += rejected.length;
      // Items refused before sending (screen) carry only their error: ids out, it groups as well.
      for (const { reason, error } of rejected) countReason(reason ?? withoutIds(error));
      const settle = () => (unknown.length > 0 ? checkpoint?.markUnknown(batch.index) : checkpoint?.markFinished(batch.index));
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
          // Done by the service and listed: a rerun must not send it again. Should the
          // checkpoint not take it either, it stays in flight there: a rerun does not resend it blindly.
          await settle()?.catch(() => undefined);
          throw error;
        }
      }
      await settle();
      if (screened.send.length > 0)
        await options.onSettled?.(
          batch.index,
          unknown.map((item) => item.line),
        );
      summary.batches += 1;
      tick();
      await answers?.done(batch.index, answered);
    } catch (error) {
      // A batch whose first request failed without being carried out (or harmlessly) is not in flight: a rerun sends it.
      if (safeToSendAgain(error)) await checkpoint?.notSent(batch.index).catch(() => undefined);
      fatal ??= { error };
    }
  };

  const pool = new TaskPool(concurrency);
  bar = await options.progress?.(options.total);
  try {
    for await (const batch of toBatches(options.items, batchSize)) {
      if (stopping()) break;
      // The input's identity is on disk before its first batch is sent.
      if (batch.index === 0) await checkpoint?.verify(fingerprintOf(batch.items));
      if (checkpoint?.has(batch.index)) {
        summary.skipped += batch.items.length;
        tick();
        await answers?.done(batch.index, []);
        continue;
      }
      // Sent by a run that stopped before its answer came (kill -9, an OOM kill): the
      // service may have carried it out. Sent again under the keys it had only where
      // repeating is harmless or asked for (--retry-unsafe), as the client's retries are.
      const resend = resendUnknown || safeToRepeat({ operationId: op.id, method: op.method, body: batch.items.map((item) => item.value) });
      if (checkpoint?.wasInFlight(batch.index) && !resend) {
        await unknownFile.write(
          batch.items.map((item) => ({
            value: item.value,
            line: item.line,
            error: `sent by run ${runId}, which stopped before the answer came: the service may have carried it out`,
          })),
        );
        await checkpoint.markUnknown(batch.index);
      }
      if (checkpoint?.isUnknown(batch.index) && !resendUnknown) {
        // Already in the unknown-outcome file: still unknown, not sent blindly.
        summary.unknown += batch.items.length;
        tick();
        await answers?.done(batch.index, []);
        continue;
      }
      await pool.whenFree();
      if (answers) await pool.until(() => answers.held < maxHeld || stopping());
      if (stopping()) break;
      pool.start(() => runBatch(batch));
    }
  } catch (error) {
    // A checkpoint that cannot be written between batches stops the run like a receipt: said with what was done.
    if (!(error instanceof CheckpointError)) throw error;
    fatal ??= { error };
  } finally {
    // However the loop ended (done, stopped, bad input), let in-flight batches land.
    await pool.drain();
    await answers?.flush().catch((error: unknown) => void (fatal ??= { error }));
    // A failure here (a full disk) is the run's error unless an earlier one stopped it.
    await checkpoint?.save().catch((error: unknown) => void (fatal ??= { error }));
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
  const rerun = checkpoint ? options.rerun?.(checkpoint.path) : undefined;
  // A client sharing the abort signal cancels its requests in flight: that is the
  // interrupt itself, reported below with the summary, not a failure of its own.
  const interrupted = options.signal?.aborted === true;
  if (fatal && !(interrupted && fatal.error instanceof InterruptedError)) {
    const error =
      fatal.error instanceof ReceiptError || fatal.error instanceof CheckpointError
        ? receiptFailure(fatal.error, summary, options.runName, rerun)
        : fatal.error;
    if (typeof error === 'object' && error !== null) stoppedRuns.set(error, summary);
    throw error;
  }
  if (interrupted) {
    summary.interrupted = true;
    throw new InterruptedError(`interrupted after ${count(summary.batches)} batches (${count(summary.succeeded + summary.failed)} items) this run`, {
      detail: summary,
      hint: checkpoint
        ? `to finish the job, run: ${rerun ?? `the same command with --checkpoint ${checkpoint.path}`} (batches done are skipped, none is sent twice)`
        : 'use --checkpoint <file> to be able to finish a stopped run',
    });
  }
  // The whole input went through: the checkpoint says so, and a rerun with it is refused.
  // Not while batches of unknown outcome remain: a rerun with --retry-unsafe sends them.
  if (checkpoint && !checkpoint.hasUnknown) await checkpoint.markDone(finishedCounts(summary));
  return summary;
}
