import { open, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from './durable-fs.js';
import { isOutOfSpace } from './errors.js';

export const JOURNAL_FILE = 'journal.ndjson';
export const JOURNAL_TEMP_FILE = 'journal.ndjson.tmp';

interface PendingAppend {
  line: string;
  seq: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Appends entries to `journal.ndjson` with group commit: an append resolves once its
 * line is fsynced; while one write + fsync runs, later appends queue, and the next
 * write + fsync covers all of them. Exclusive tasks (the compaction's journal swap) run
 * between batches, never during one.
 */
export class JournalWriter {
  /** Bytes and entries in the journal file, for deciding when to compact. */
  bytes: number;
  entries: number;
  /** Set after a failed write: nothing more is accepted (the disk and memory may differ). */
  failure: unknown;
  /** Called after each batch is durable, with the last sequence number it holds. */
  onFlushed: ((lastSeq: number) => void) | undefined;
  /**
   * Called when a write failed for lack of space, before any of the entries it refuses
   * (the batch and everything queued behind it, from `firstSeq` on) is rejected: their
   * changes, already in memory, are to be taken back. The journal is then cut back to
   * its last durable byte and takes writes again, so freeing space is all it takes.
   */
  onRefused: ((firstSeq: number) => void) | undefined;

  private queue: PendingAppend[] = [];
  private readonly tasks: Array<() => Promise<void>> = [];
  private draining = false;
  private idleWaiters: Array<() => void> = [];
  private carry: { afterSeq: number; lines: string[] } | undefined;

  private constructor(
    private readonly dir: string,
    private handle: FileHandle,
    bytes: number,
    entries: number,
  ) {
    this.bytes = bytes;
    this.entries = entries;
  }

  /**
   * Opens the journal for appending, first cutting it to `validBytes` (dropping a torn
   * tail) and ending an unterminated last entry with its newline.
   */
  static async open(dir: string, validBytes: number, entries: number, needsNewline: boolean): Promise<JournalWriter> {
    const handle = await open(join(dir, JOURNAL_FILE), 'a');
    try {
      const { size } = await handle.stat();
      if (size > validBytes) await handle.truncate(validBytes);
      if (needsNewline) await handle.appendFile('\n');
      if (size !== validBytes || needsNewline) await handle.sync();
      await fsyncDir(dir);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new JournalWriter(dir, handle, validBytes + (needsNewline ? 1 : 0), entries);
  }

  /** Queues one entry (a line ending in a newline); resolves once it is on disk. */
  append(line: string, seq: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ line, seq, resolve, reject });
      this.kick();
    });
  }

  /** Runs `task` between batches, with no append in progress. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      this.tasks.push(() => task().then(resolve, reject));
      this.kick();
    });
  }

  /** Starts keeping the lines of entries after `afterSeq` written from now on. */
  startCarry(afterSeq: number): void {
    this.carry = { afterSeq, lines: [] };
  }

  stopCarry(): void {
    this.carry = undefined;
  }

  /**
   * Replaces the journal with the entries a compaction's snapshot does not hold. Call
   * through `exclusive`. The new journal is written to a temporary file, fsynced and
   * renamed over the old one, so a crash leaves one or the other whole — and either is
   * right, since replay skips entries the snapshot already holds.
   */
  async replaceWithCarry(): Promise<void> {
    const lines = this.carry?.lines ?? [];
    this.carry = undefined;
    const temp = join(this.dir, JOURNAL_TEMP_FILE);
    await rm(temp, { force: true });
    const handle = await open(temp, 'a');
    const data = lines.join('');
    try {
      await handle.appendFile(data);
      await handle.sync();
      await rename(temp, join(this.dir, JOURNAL_FILE));
    } catch (error) {
      await handle.close();
      await rm(temp, { force: true });
      throw error;
    }
    // From the rename on, appends must go to the new file whatever happens next.
    const previous = this.handle;
    this.handle = handle;
    this.bytes = Buffer.byteLength(data);
    this.entries = lines.length;
    await previous.close();
    await fsyncDir(this.dir);
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    await this.idle();
    await this.handle.close();
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const task = this.tasks.shift();
      if (task !== undefined) {
        await task();
        continue;
      }
      if (this.queue.length === 0) break;
      await this.writeBatch(this.queue.splice(0));
    }
    this.draining = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async writeBatch(batch: PendingAppend[]): Promise<void> {
    const data = batch.length === 1 ? (batch[0] as PendingAppend).line : batch.map((pending) => pending.line).join('');
    try {
      if (this.failure !== undefined) throw this.failure;
      await this.handle.appendFile(data);
      // fdatasync is enough for an append: it also flushes the file size.
      await this.handle.datasync();
    } catch (error) {
      if (this.failure === undefined && isOutOfSpace(error)) return this.refuse(batch, error);
      this.failure ??= error;
      for (const pending of batch) pending.reject(error);
      return;
    }
    this.bytes += Buffer.byteLength(data);
    this.entries += batch.length;
    const carry = this.carry;
    if (carry !== undefined) {
      for (const pending of batch) if (pending.seq > carry.afterSeq) carry.lines.push(pending.line);
    }
    for (const pending of batch) pending.resolve();
    this.onFlushed?.((batch[batch.length - 1] as PendingAppend).seq);
  }

  /**
   * A full disk: refuses the batch and everything queued behind it (those were applied
   * in memory on top of it), then cuts the journal back to its last durable byte — a
   * partial line must not sit in front of the next entry. Only when that cut fails
   * does the journal stop taking writes.
   */
  private async refuse(batch: PendingAppend[], error: unknown): Promise<void> {
    const refused = [...batch, ...this.queue.splice(0)];
    this.onRefused?.((refused[0] as PendingAppend).seq);
    for (const pending of refused) pending.reject(error);
    try {
      await this.handle.truncate(this.bytes);
    } catch (cutError) {
      this.failure ??= cutError;
    }
  }
}
