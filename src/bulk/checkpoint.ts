import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { replacePrivateFile } from '../io/private-files.js';
import { newRunId } from '../runs/run-id.js';
import { UsageError } from '../errors.js';
import type { SourceItem } from '../io/input/types.js';
import { jsonText } from '../json/json-text.js';
import { parseJson } from '../json/json-parse.js';

/** What a checkpoint file holds. */
export interface CheckpointData {
  version: 1;
  operationId: string;
  batchSize: number;
  /** Hash of the first batch's records: the same input gives the same batches. */
  fingerprint?: string;
  /**
   * Every finished batch (succeeded, or its failures written to the rejects file).
   * A set, not a high-water mark: with concurrency, batches finish out of order.
   */
  finished: number[];
  /**
   * The run's id: a batch's Idempotency-Key is derived from it, so a resumed run
   * sends a batch again under the key it had (a service that keeps keys replays it).
   * Missing in checkpoints of older versions (a new id is made).
   */
  runId?: string;
  /** Batches whose outcome is unknown (written to the unknown-outcome file, not resent blindly). */
  unknown?: number[];
}

/** Fingerprint of an input: a hash of its first batch (works for stdin too, where there is no file to stat). */
export function fingerprintOf(items: SourceItem[]): string {
  const hash = createHash('sha256');
  for (const item of items) hash.update(jsonText(item.value) ?? '').update('\n');
  return hash.digest('hex');
}

/**
 * The resume record of a bulk run. Written after every finished batch, atomically
 * (a temporary file renamed over the old one), so a run stopped at any moment —
 * Ctrl-C, a crash, a kill — leaves a readable checkpoint. Writes are chained so two
 * batches finishing together never interleave, and coalesced when they pile up.
 */
export class Checkpoint {
  private readonly finished: Set<number>;
  private readonly unknown: Set<number>;
  private fingerprint: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private dirty = false;

  private constructor(
    readonly path: string,
    private readonly data: CheckpointData,
  ) {
    this.finished = new Set(data.finished);
    this.unknown = new Set(data.unknown ?? []);
    this.fingerprint = data.fingerprint;
  }

  /** The run's id (kept across resumes). */
  get runId(): string {
    this.data.runId ??= newRunId();
    return this.data.runId;
  }

  /** Loads the checkpoint at `path`, or starts a new one; refuses one from a different run. */
  static async open(path: string, run: { operationId: string; batchSize: number }, runId: string): Promise<Checkpoint> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`cannot read checkpoint ${path}: ${(error as Error).message}`);
      return new Checkpoint(path, { version: 1, ...run, finished: [], runId });
    }
    let data: CheckpointData;
    try {
      data = parseJson(text) as CheckpointData;
    } catch {
      throw new UsageError(`checkpoint ${path} is not a checkpoint file (not JSON)`, { hint: 'remove it to start over' });
    }
    if (data.version !== 1 || !Array.isArray(data.finished))
      throw new UsageError(`checkpoint ${path} is not a checkpoint file`, { hint: 'remove it to start over' });
    if (data.operationId !== run.operationId) {
      throw new UsageError(`checkpoint ${path} belongs to a ${data.operationId} run, not ${run.operationId}`, {
        hint: 'use another --checkpoint file, or remove it to start over',
      });
    }
    if (data.batchSize !== run.batchSize) {
      throw new UsageError(`checkpoint ${path} was written with --batch-size ${data.batchSize}, not ${run.batchSize}`, {
        hint: `re-run with --batch-size ${data.batchSize}`,
      });
    }
    return new Checkpoint(path, data);
  }

  /** Whether an earlier run already finished some batches or left some of unknown outcome. */
  get resumed(): boolean {
    return this.data.finished.length > 0 || (this.data.unknown?.length ?? 0) > 0;
  }

  /** Whether an earlier run left batches of unknown outcome. */
  get hasUnknown(): boolean {
    return this.unknown.size > 0;
  }

  /** Checks the input is the one the checkpoint was written for (first batch only). */
  verify(fingerprint: string): void {
    if (this.fingerprint !== undefined && this.fingerprint !== fingerprint) {
      throw new UsageError(`checkpoint ${this.path} was written for different input (its first records differ)`, {
        hint: 'resume with the same input, or remove the checkpoint to start over',
      });
    }
    this.fingerprint = fingerprint;
  }

  has(index: number): boolean {
    return this.finished.has(index);
  }

  /** Whether the batch's outcome was left unknown by an earlier run. */
  isUnknown(index: number): boolean {
    return this.unknown.has(index);
  }

  /** Records a finished batch and saves; resolves once it is on disk. */
  markFinished(index: number): Promise<void> {
    this.finished.add(index);
    this.unknown.delete(index);
    return this.save();
  }

  /** Records a batch whose outcome is unknown (its records are in the unknown-outcome file) and saves. */
  markUnknown(index: number): Promise<void> {
    this.unknown.add(index);
    return this.save();
  }

  /** Saves the current state; resolves once it (or a later state) is on disk. */
  save(): Promise<void> {
    this.dirty = true;
    this.chain = this.chain.then(() => (this.dirty ? this.write() : undefined));
    return this.chain;
  }

  /** Removes the checkpoint once the run has gone through the whole input. */
  async remove(): Promise<void> {
    await this.chain;
    await rm(this.path, { force: true });
  }

  private async write(): Promise<void> {
    this.dirty = false;
    const data: CheckpointData = {
      ...this.data,
      fingerprint: this.fingerprint,
      finished: [...this.finished].sort((a, b) => a - b),
      unknown: [...this.unknown].sort((a, b) => a - b),
      runId: this.runId,
    };
    await replacePrivateFile(this.path, `${jsonText(data)}\n`, { what: 'checkpoint' });
  }
}
