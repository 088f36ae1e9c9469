import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { replacePrivateFile } from '../io/private-files.js';
import { CheckpointError, UsageError } from '../errors.js';
import type { SourceItem } from '../io/input/types.js';
import { jsonText } from '../json/json-text.js';
import { parseJson } from '../json/json-parse.js';
import { count } from './format-numbers.js';

/** What a finished run did, kept in its checkpoint so a rerun can say it. */
export interface FinishedRun {
  at: string;
  /** Counts of the run's summary that are not zero (`succeeded`, `created`, `failed` …). */
  counts: Record<string, number>;
}

/** What a checkpoint file holds. */
export interface CheckpointData {
  version: 1;
  operationId: string;
  batchSize: number;
  /**
   * The run's id: a batch's Idempotency-Key is derived from it, so a rerun sends a
   * batch again under the key it had (a service that keeps keys replays it).
   * Missing only in checkpoints of older versions (a new id is made).
   */
  runId?: string;
  /** When the run (its first attempt) started. */
  startedAt?: string;
  /** Hash of the first batch's records: the same input gives the same batches. */
  fingerprint?: string;
  /**
   * Every finished batch (succeeded, or its failures written to the rejects file).
   * A set, not a high-water mark: with concurrency, batches finish out of order.
   */
  finished: number[];
  /** Batches whose outcome is unknown (written to the unknown-outcome file, not resent blindly). */
  unknown?: number[];
  /**
   * Batches about to be sent or in flight: each is written here before its first
   * request. A batch still here when a run is read back was in flight when that run
   * stopped (kill -9, an OOM kill, a lost terminal): the service may have carried it out.
   */
  sending?: number[];
  /** The rejects and unknown-outcome files the run writes: a rerun adds to the same ones. */
  files?: RunFiles;
  /** Set once the run went through its whole input: a rerun is refused unless forced. */
  done?: FinishedRun;
}

/** Where a run's rejects and records of unknown outcome go. */
export interface RunFiles {
  rejects?: string;
  unknown?: string;
}

/** Fingerprint of an input: a hash of its first batch (works for stdin too, where there is no file to stat). */
export function fingerprintOf(items: SourceItem[]): string {
  const hash = createHash('sha256');
  for (const item of items) hash.update(jsonText(item.value) ?? '').update('\n');
  return hash.digest('hex');
}

/** `created 600, failed 2`: a finished run's counts in words. */
function countsInWords(counts: Record<string, number>): string {
  const shown = Object.entries(counts).map(([name, n]) => `${name} ${count(n)}`);
  return shown.length > 0 ? shown.join(', ') : 'nothing to do';
}

/** What opening a checkpoint needs to know of the run about to start. */
export interface CheckpointRun {
  operationId: string;
  batchSize: number;
  /** The id a new run gets (a resumed one keeps the checkpoint's). */
  runId: string;
  /** Start again over a finished run's checkpoint (`--force`): a new run, with new keys. */
  force?: boolean;
}

/**
 * The resume record of a bulk run, on disk before the run's first request: its id
 * (from which every Idempotency-Key derives), the batch size and the input's
 * fingerprint, then each batch as it is sent and as it settles. Every write is
 * atomic (a temporary file renamed over the old one), so a run stopped at any
 * moment — Ctrl-C, SIGTERM, kill -9, an OOM kill — leaves a readable checkpoint
 * naming what was done and what was in flight. Writes are chained so two batches
 * never interleave, and coalesced when they pile up.
 */
export class Checkpoint {
  private readonly finished: Set<number>;
  private readonly unknown: Set<number>;
  private readonly sending = new Set<number>();
  /** Batches an earlier run left in flight (read at open): of unknown outcome. */
  private readonly leftInFlight: Set<number>;
  private fingerprint: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private dirty = false;

  private constructor(
    readonly path: string,
    private readonly data: CheckpointData & { runId: string },
    /** Whether the file held an earlier attempt of this run. */
    readonly reopened: boolean,
  ) {
    this.finished = new Set(data.finished);
    this.unknown = new Set(data.unknown ?? []);
    this.leftInFlight = new Set((data.sending ?? []).filter((index) => !this.finished.has(index) && !this.unknown.has(index)));
    // Still in flight until this run settles them: a stop now leaves them named.
    for (const index of this.leftInFlight) this.sending.add(index);
    this.fingerprint = data.fingerprint;
  }

  /** The run's id (kept across reruns). */
  get runId(): string {
    return this.data.runId;
  }

  /**
   * Loads the checkpoint at `path`, or starts a new one, and has it on disk before
   * it returns: a run never sends before its checkpoint exists. Refuses one of a
   * different run, and one whose run finished (unless `force`).
   */
  static async open(path: string, run: CheckpointRun): Promise<Checkpoint> {
    const fresh = (): CheckpointData & { runId: string } => ({
      version: 1,
      operationId: run.operationId,
      batchSize: run.batchSize,
      runId: run.runId,
      startedAt: new Date().toISOString(),
      finished: [],
    });
    const earlier = await readCheckpoint(path, run);
    let checkpoint: Checkpoint;
    if (!earlier) checkpoint = new Checkpoint(path, fresh(), false);
    else if (earlier.done && run.force) checkpoint = new Checkpoint(path, fresh(), false);
    else if (earlier.done) {
      throw new UsageError(
        `checkpoint ${path}: run ${earlier.runId ?? '(unnamed)'} went through its whole input at ${earlier.done.at} (${countsInWords(earlier.done.counts)}); nothing was sent`,
        {
          hint: 'a finished run is not run again: to send the whole input once more, as a new run with new Idempotency-Keys, add --force',
        },
      );
    } else checkpoint = new Checkpoint(path, { ...earlier, runId: earlier.runId ?? run.runId }, true);
    await checkpoint.save();
    return checkpoint;
  }

  /** Whether an earlier run already finished some batches or left some of unknown outcome or in flight. */
  get resumed(): boolean {
    return this.reopened && (this.finished.size > 0 || this.unknown.size > 0 || this.leftInFlight.size > 0);
  }

  /** Whether batches of unknown outcome remain (left by an earlier run, or by this one). */
  get hasUnknown(): boolean {
    return this.unknown.size > 0 || this.leftInFlight.size > 0;
  }

  /** Checks the input is the one the checkpoint was written for (first batch only), and keeps its fingerprint; on disk once it resolves. */
  async verify(fingerprint: string): Promise<void> {
    if (this.fingerprint !== undefined && this.fingerprint !== fingerprint) {
      throw new UsageError(`checkpoint ${this.path} was written for different input (its first records differ)`, {
        hint: 'rerun with the same input, or name another --checkpoint to start a new run',
      });
    }
    if (this.fingerprint === fingerprint) return;
    this.fingerprint = fingerprint;
    await this.save();
  }

  has(index: number): boolean {
    return this.finished.has(index);
  }

  /** Whether the batch's outcome was left unknown by an earlier run. */
  isUnknown(index: number): boolean {
    return this.unknown.has(index);
  }

  /** Whether an earlier run sent the batch and stopped before its answer was recorded. */
  wasInFlight(index: number): boolean {
    return this.leftInFlight.has(index);
  }

  /** The files the run wrote to before this attempt (none for a new run). */
  get files(): RunFiles {
    return this.reopened ? { ...this.data.files } : {};
  }

  /** Keeps the names of the run's files, for reruns; resolves once on disk. */
  keepFiles(files: RunFiles): Promise<void> {
    this.data.files = files;
    return this.save();
  }

  /** Records that a batch is about to be sent; resolves once that is on disk (send only then). */
  markSending(index: number): Promise<void> {
    this.sending.add(index);
    return this.save();
  }

  /** Takes back `markSending` for a batch the run stopped before sending. */
  notSent(index: number): Promise<void> {
    if (this.leftInFlight.has(index)) return Promise.resolve();
    this.sending.delete(index);
    return this.save();
  }

  /** Records a finished batch and saves; resolves once it is on disk. */
  markFinished(index: number): Promise<void> {
    this.settle(index);
    this.finished.add(index);
    this.unknown.delete(index);
    return this.save();
  }

  /** Records a batch whose outcome is unknown (its records are in the unknown-outcome file) and saves. */
  markUnknown(index: number): Promise<void> {
    this.settle(index);
    this.unknown.add(index);
    return this.save();
  }

  /** Records that the run went through its whole input: a later run with this checkpoint is refused. */
  markDone(counts: Record<string, number>): Promise<void> {
    this.data.done = { at: new Date().toISOString(), counts };
    return this.save();
  }

  /** Saves the current state; resolves once it (or a later state) is on disk. */
  save(): Promise<void> {
    this.dirty = true;
    this.chain = this.chain.then(() => (this.dirty ? this.write() : undefined));
    return this.chain;
  }

  private settle(index: number): void {
    this.sending.delete(index);
    this.leftInFlight.delete(index);
  }

  private async write(): Promise<void> {
    this.dirty = false;
    const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b);
    const data: CheckpointData = {
      ...this.data,
      fingerprint: this.fingerprint,
      finished: sorted(this.finished),
      unknown: sorted(this.unknown),
      sending: sorted(this.sending),
    };
    try {
      await replacePrivateFile(this.path, `${jsonText(data)}\n`, { what: 'checkpoint' });
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new CheckpointError(`cannot write the checkpoint ${this.path}: ${(error as Error).message}`, { cause: error });
    }
  }
}

/** The checkpoint at `path` when there is one; refuses a file that is not one, or one of another command. */
async function readCheckpoint(path: string, run: CheckpointRun): Promise<CheckpointData | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read checkpoint ${path}: ${(error as Error).message}`);
  }
  let data: CheckpointData;
  try {
    data = parseJson(text) as CheckpointData;
  } catch {
    throw new UsageError(`checkpoint ${path} is not a checkpoint file (not JSON)`, { hint: 'name another --checkpoint to start a new run' });
  }
  if (typeof data !== 'object' || data === null || data.version !== 1 || !Array.isArray(data.finished))
    throw new UsageError(`checkpoint ${path} is not a checkpoint file`, { hint: 'name another --checkpoint to start a new run' });
  if (data.operationId !== run.operationId) {
    throw new UsageError(`checkpoint ${path} belongs to a ${data.operationId} run, not ${run.operationId}`, {
      hint: 'use another --checkpoint file for this command',
    });
  }
  if (data.batchSize !== run.batchSize) {
    throw new UsageError(`checkpoint ${path} was written with --batch-size ${data.batchSize}, not ${run.batchSize}`, {
      hint: `rerun with --batch-size ${data.batchSize}`,
    });
  }
  return data;
}
