import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { jsonText } from '../../json/json-text.js';
import { parseJson } from '../../json/json-parse.js';
import { readLines } from './lines.js';
import type { SourceItem } from './types.js';

type RecordItem = SourceItem<Record<string, unknown>>;

/** One item as a spool line: short keys, the record as parsed. */
interface SpoolLine {
  v: Record<string, unknown>;
  l: number;
  c?: Record<string, string>;
  r?: string[];
}

/**
 * Records read once, kept for the passes after the first: input that must be
 * judged whole before any of it is sent (duplicate ids) is parsed once (a csv
 * parse costs far more than reading JSON back), and stdin, which cannot be read
 * twice, is read once. A temporary file (mode 0600, finance data), one JSON line
 * a record with its line and cells; `remove` deletes it.
 */
export class ParsedSpool {
  private out: WriteStream | undefined;

  private constructor(
    private readonly dir: string,
    readonly path: string,
  ) {}

  static async create(): Promise<ParsedSpool> {
    const dir = await mkdtemp(join(tmpdir(), 'pla-input-'));
    const spool = new ParsedSpool(dir, join(dir, 'records.ndjson'));
    spool.out = createWriteStream(spool.path, { mode: 0o600 });
    return spool;
  }

  /** Adds one item, waiting when the disk is behind. */
  async write(item: RecordItem): Promise<void> {
    const line: SpoolLine = { v: item.value, l: item.line, ...(item.cells ? { c: item.cells } : {}), ...(item.row ? { r: item.row } : {}) };
    const out = this.out as WriteStream;
    if (!out.write(`${jsonText(line)}\n`)) await once(out, 'drain');
  }

  /** Ends writing: every item is on disk. */
  async close(): Promise<void> {
    const out = this.out;
    if (!out) return;
    this.out = undefined;
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }

  /** The items, in the order written (a fresh read each time). */
  async *read(): AsyncGenerator<RecordItem> {
    const stream = createReadStream(this.path, { highWaterMark: 64 * 1024 });
    try {
      for await (const { text } of readLines(stream)) {
        const line = parseJson(text) as SpoolLine;
        yield { value: line.v, line: line.l, ...(line.c ? { cells: line.c } : {}), ...(line.r ? { row: line.r } : {}) };
      }
    } finally {
      stream.destroy();
    }
  }

  async remove(): Promise<void> {
    this.out?.destroy();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Records held in memory before they go to a spool: a sheet of this many rows is parsed once and never written to disk. */
export const HELD_IN_MEMORY = 50_000;

/**
 * The records of one input, read once and read back as often as needed: held in
 * memory up to `limit` (most sheets); past it, memory stays bounded for a million
 * rows: with `spill` all are written to a `ParsedSpool` (stdin, which cannot be
 * read again), else they are dropped and `complete` is false: the caller reads
 * its file again, which costs less than writing and reading the spool.
 */
export class HeldRecords {
  private held: RecordItem[] | undefined = [];
  private spool: ParsedSpool | undefined;
  private dropped = false;

  constructor(private readonly options: { limit?: number; spill: boolean }) {}

  /** Whether `read` gives every record added (else the caller reads its input again). */
  get complete(): boolean {
    return !this.dropped;
  }

  async add(item: RecordItem): Promise<void> {
    if (this.dropped) return;
    if (this.held && this.held.length < (this.options.limit ?? HELD_IN_MEMORY)) {
      this.held.push(item);
      return;
    }
    if (!this.options.spill) {
      this.held = undefined;
      this.dropped = true;
      return;
    }
    if (!this.spool) {
      this.spool = await ParsedSpool.create();
      for (const earlier of this.held ?? []) await this.spool.write(earlier);
      this.held = undefined;
    }
    await this.spool.write(item);
  }

  /** Ends adding. */
  async close(): Promise<void> {
    await this.spool?.close();
  }

  /** The records, in the order added (a fresh pass each time). */
  async *read(): AsyncGenerator<RecordItem> {
    if (this.spool) yield* this.spool.read();
    else yield* this.held ?? [];
  }

  async remove(): Promise<void> {
    this.held = undefined;
    await this.spool?.remove();
  }
}
