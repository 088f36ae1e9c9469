/**
 * The bulk runner's surface: commands hand it a stream of records or ids and the
 * bulk operation to send them through; it batches, runs batches concurrently,
 * retries through the client, splits failing batches to find the bad records,
 * writes rejects, keeps a checkpoint, and reports progress and a summary.
 */
import type { PlaClient } from '../client/types.js';
import type { Accepted } from './split.js';
import type { InputFormat, SourceItem } from '../io/input/types.js';
import type { StartProgress } from './progress.js';
import type { OperationId } from '../contract/operations.js';
import type { Reject } from './rejects.js';

/** Of a batch about to be sent: the items to send, and those refused without sending (with why). */
export interface ScreenedBatch {
  send: SourceItem[];
  refused: Array<Reject & { line: number }>;
}

export interface BulkOptions {
  client: PlaClient;
  /** A bulk operation of the contract, e.g. `determinations.upsertBulk`, `tasks.cancelBulk`. */
  operationId: OperationId;
  /** Records (objects) or ids (numbers), with their input lines. */
  items: AsyncIterable<SourceItem>;
  /** Default `BULK_DEFAULTS.batchSize`. */
  batchSize?: number;
  /** Batches in flight at once, default `BULK_DEFAULTS.concurrency`. */
  concurrency?: number;
  /**
   * The receipt's run id: given, refused and unreadable rows always go to a rejects
   * file, `rejects-<run>.<format>` when `rejectsPath` names none (beside the
   * checkpoint, else beside `inputPath`, else in `folder`).
   */
  runName?: string;
  /** Where files the run writes without being told where land when no file of the run is there to sit beside (default `.`). */
  folder?: string;
  /** The input file (not stdin), beside which a default rejects file goes. */
  inputPath?: string;
  /** Failed records go here, each with its error: in the format the path's extension names, else `rejectsFormat`, else ndjson. */
  rejectsPath?: string;
  /** The input's format, for a rejects path whose extension names none. */
  rejectsFormat?: InputFormat;
  /**
   * The run's checkpoint (`--checkpoint`): on disk before the first request; a rerun
   * with the same file skips finished batches and sends others under the keys they had.
   */
  checkpointPath?: string;
  /** The checkpoint a run gets when `checkpointPath` names none (in the receipts folder), so a stopped run can still be finished. */
  autoCheckpointPath?: string;
  /** Run again over a checkpoint whose run finished (`--force`): a new run, with new keys. */
  force?: boolean;
  /** The command that finishes this run with its checkpoint, for the hint of a stopped run. */
  rerun?: (checkpointPath: string) => string;
  /**
   * The run's id (src/runs/run-id.ts; its receipt's, when it has one), for the
   * Idempotency-Keys and the unknown-outcome file's name; a resumed checkpoint keeps its own.
   */
  runId?: string;
  /**
   * Records of batches whose outcome is unknown (a create that failed after the
   * service may have carried it out) go here, in the format its extension names,
   * else the input's; default `unknown-outcome-<run id>.<format>` beside the
   * checkpoint, else the rejects file, else in `folder`.
   */
  unknownPath?: string;
  /** The client repeats creates (--retry-unsafe): batches of unknown outcome from a resumed run are sent again too. */
  retryUnsafe?: boolean;
  /**
   * A delete's or remove's 404 read back as not found is done, "already gone"
   * (`--ignore-not-found`). Without it, only ids of a batch an earlier attempt of
   * the run left in flight count so (the run itself may have deleted them).
   */
  goneIsDone?: boolean;
  /** Once aborted, no new batch starts; batches in flight finish, the checkpoint is written. */
  signal?: AbortSignal;
  /** Starts a progress bar (progress.ts); it gives none where there is no terminal. */
  progress?: StartProgress;
  /** Warnings for a person (unreadable input rows) when there is no bar to print them above. */
  warn?: (line: string) => void;
  /** Total item count when known (for ETA). */
  total?: number;
  /**
   * Told what the service answered for each accepted request, in input order
   * (batches finish out of order; answers wait for the ones before them). A
   * failure here (stdout closed) stops the run like any error not about the items.
   */
  onAnswers?: (answers: Accepted[]) => Promise<void>;
  /**
   * Called before each batch is sent: may hold items back as refused (`pla apply`
   * refuses records changed since the plan), or read what it needs first (the
   * records before, on a protected environment). Refused items count as failed
   * and go to the rejects file.
   */
  screen?: (items: SourceItem[]) => Promise<ScreenedBatch>;
  /**
   * Called as soon as the service acknowledged a batch's requests (not in input
   * order), before the checkpoint records the batch: the receipt's hook, which must
   * hold every acknowledged record even if the CLI is killed a moment later.
   */
  onAcknowledged?: (answers: Accepted[]) => void | Promise<void>;
  /**
   * Called with a batch's items just before they are sent: the receipt records
   * them first, so a receipt that cannot be written stops the run before the
   * service is asked (nothing of the batch is sent).
   */
  onSending?: (batch: number, items: SourceItem[]) => void | Promise<void>;
  /** Called once a sent batch's outcome is known and written (`unknown`: the lines whose outcome is not). */
  onSettled?: (batch: number, unknown: number[]) => void | Promise<void>;
}

export interface BulkSummary {
  operationId: OperationId;
  /** Items sent and accepted. */
  succeeded: number;
  /** Of the succeeded records: without an id in the input (created) / with one (updated). */
  created: number;
  updated: number;
  failed: number;
  /** Records whose outcome is unknown: in the unknown-outcome file, neither sent again nor counted as done. */
  unknown: number;
  /** Of `succeeded`: refused, and read back already as asked (a rerun's "already cancelled"). */
  already: number;
  /** Of `succeeded`: confirmed by the service but not in the receipt (it could not be written): in the unknown-outcome file. */
  unrecorded: number;
  /**
   * Of `succeeded`: answered again under their Idempotency-Keys (`Idempotent-Replayed`):
   * carried out by an earlier, stopped run of the same checkpoint, not counted as created or updated.
   */
  replayed: number;
  /** Rows repeating an earlier row exactly (same id and values): sent once, as the first. */
  repeats: number;
  /** Bad input rows skipped plus batches skipped thanks to the checkpoint. */
  skipped: number;
  /** Of `skipped`: input rows that could not be read (malformed, not an object). */
  badRows: number;
  /** The failed items grouped by why the service refused them, most frequent first. */
  reasons: Array<{ reason: string; count: number }>;
  batches: number;
  elapsedMs: number;
  rejectsPath?: string;
  unknownPath?: string;
  checkpointPath?: string;
  interrupted: boolean;
}
