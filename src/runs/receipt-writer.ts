/**
 * Writes one receipt. What is about to be sent is written before it is sent
 * (`sending`), what the service acknowledged as soon as it answers (`records`),
 * then that the batch is settled. Every line goes to the file with a synchronous
 * write, so a killed CLI (kill -9) leaves a receipt holding everything acknowledged
 * before it died, and naming what was in flight: the kernel has the bytes once
 * `writeSync` returns. (A lost machine needs fsync; a receipt is not worth an fsync
 * per batch.)
 *
 * A write that fails (a full disk, a folder made read-only) is cut back to the last
 * whole line and throws `ReceiptError`; the writer then writes nothing more, so the
 * receipt never holds a torn line, and the run stops before its next batch.
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ReceiptError } from '../errors.js';
import { jsonText } from '../json/json-text.js';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../io/private-files.js';
import { newRunId } from './run-id.js';
import type { EndLine, RecordLine, ReceiptLine, RunHeader, SendingLine } from './types.js';

export class ReceiptWriter {
  private readonly counts: Record<string, number> = {};
  private readonly extra: Record<string, number> = {};
  private closed = false;
  /** Bytes of whole lines written so far: where a failed write is cut back to. */
  private size = 0;
  private batches = 0;
  /** Set once a write failed: nothing more is written. */
  private failure: ReceiptError | undefined;

  private constructor(
    readonly run: string,
    readonly path: string,
    private readonly fd: number,
  ) {}

  /** Creates `<dir>/<run>.ndjson` (mode 0600: receipts hold records) and writes the header. */
  static create(dir: string, header: Omit<RunHeader, 'type' | 'run'>): ReceiptWriter {
    // A symbolic link in its place is refused by makePrivateDir with its own error (exit 2).
    makePrivateDir(dir, 'receipts folder');
    const run = newRunId(new Date(header.startedAt));
    const path = join(dir, `${run}.ndjson`);
    let fd: number;
    try {
      fd = openSync(path, 'ax', PRIVATE_FILE_MODE);
    } catch (error) {
      throw new ReceiptError(`cannot create the receipt ${path}: ${(error as Error).message}; nothing was sent`, {
        cause: error,
        hint: 'free some space or make the config folder writable (pla config path), then run again',
      });
    }
    const writer = new ReceiptWriter(run, path, fd);
    writer.append([{ type: 'run', run, ...header }]);
    return writer;
  }

  /** Whether a write failed (the receipt ends at its last whole line). */
  get failed(): ReceiptError | undefined {
    return this.failure;
  }

  /** Records a batch about to be sent; returns its number, for `settled`. Throws `ReceiptError` when it cannot be written. */
  sending(items: SendingLine['items']): number {
    this.batches += 1;
    this.append([{ type: 'sending', batch: this.batches, items }]);
    return this.batches;
  }

  /** Records that a batch's answer is known and its records written; `unknown`: lines whose outcome stays unknown. */
  settled(batch: number, unknown: number[] = []): void {
    this.append([{ type: 'settled', batch, ...(unknown.length > 0 ? { unknown } : {}) }]);
  }

  /** Appends what the service acknowledged for some records. */
  records(lines: Array<Omit<RecordLine, 'type'>>): void {
    if (lines.length === 0) return;
    this.append(lines.map((line) => ({ type: 'record', ...line })));
    for (const line of lines) {
      const counted = line.unconfirmed ? 'unknown' : line.replayed ? 'replayed' : line.action;
      this.counts[counted] = (this.counts[counted] ?? 0) + 1;
    }
  }

  /** Adds to a count the record lines do not show (failed, conflicts). */
  count(name: string, n: number): void {
    if (n > 0) this.extra[name] = (this.extra[name] ?? 0) + n;
  }

  /** Writes the end line and closes the file; `extra` adds counts the records do not show (failed, conflicts). A receipt that failed is closed without one: it shows as unfinished. */
  finish(exitCode: number, extra: Record<string, number> = {}): void {
    if (this.closed) return;
    if (!this.failure) {
      const end: EndLine = { type: 'end', endedAt: new Date().toISOString(), exitCode, counts: { ...this.counts, ...this.extra, ...extra } };
      try {
        this.append([end]);
      } catch {
        // Said by the error the run already ends with, or by `pla runs show` (unfinished).
      }
    }
    this.closed = true;
    closeSync(this.fd);
  }

  private append(lines: ReceiptLine[]): void {
    if (this.failure) throw this.failure;
    if (this.closed) return;
    const text = Buffer.from(lines.map((line) => `${jsonText(line)}\n`).join(''));
    try {
      let written = 0;
      while (written < text.length) written += writeSync(this.fd, text, written, text.length - written, this.size + written);
      this.size += text.length;
    } catch (error) {
      try {
        ftruncateSync(this.fd, this.size);
      } catch {
        // The torn line is skipped by readers (receipt-store.ts) all the same.
      }
      this.failure = new ReceiptError(`cannot write the receipt ${this.path}: ${(error as Error).message}`, { cause: error });
      throw this.failure;
    }
  }
}
