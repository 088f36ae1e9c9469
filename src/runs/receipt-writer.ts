/**
 * Writes one receipt. Every line goes to the file with a synchronous write as soon
 * as the service acknowledged its records, so a killed CLI (kill -9) leaves a
 * receipt holding everything acknowledged before it died: the kernel has the
 * bytes once `writeSync` returns. (A lost machine needs fsync; a receipt is not
 * worth an fsync per batch.)
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { jsonText } from '../json/json-text.js';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../io/private-files.js';
import { newRunId } from './run-id.js';
import type { EndLine, RecordLine, ReceiptLine, RunHeader } from './types.js';


export class ReceiptWriter {
  private readonly counts: Record<string, number> = {};
  private readonly extra: Record<string, number> = {};
  private closed = false;

  private constructor(
    readonly run: string,
    readonly path: string,
    private readonly fd: number,
  ) {}

  /** Creates `<dir>/<run>.ndjson` (mode 0600: receipts hold records) and writes the header. */
  static create(dir: string, header: Omit<RunHeader, 'type' | 'run'>): ReceiptWriter {
    makePrivateDir(dir, 'receipts folder');
    const run = newRunId(new Date(header.startedAt));
    const path = join(dir, `${run}.ndjson`);
    const writer = new ReceiptWriter(run, path, openSync(path, 'ax', PRIVATE_FILE_MODE));
    writer.append([{ type: 'run', run, ...header }]);
    return writer;
  }

  /** Appends what the service acknowledged for some records. */
  records(lines: Array<Omit<RecordLine, 'type'>>): void {
    if (lines.length === 0) return;
    for (const line of lines) this.counts[line.action] = (this.counts[line.action] ?? 0) + 1;
    this.append(lines.map((line) => ({ type: 'record', ...line })));
  }

  /** Adds to a count the record lines do not show (failed, conflicts). */
  count(name: string, n: number): void {
    if (n > 0) this.extra[name] = (this.extra[name] ?? 0) + n;
  }

  /** Writes the end line and closes the file; `extra` adds counts the records do not show (failed, conflicts). */
  finish(exitCode: number, extra: Record<string, number> = {}): void {
    if (this.closed) return;
    const end: EndLine = { type: 'end', endedAt: new Date().toISOString(), exitCode, counts: { ...this.counts, ...this.extra, ...extra } };
    this.append([end]);
    this.closed = true;
    closeSync(this.fd);
  }

  private append(lines: ReceiptLine[]): void {
    if (this.closed) return;
    writeSync(this.fd, lines.map((line) => `${jsonText(line)}\n`).join(''));
  }
}
