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
    const line: SpoolLine = item.cells ? { v: item.value, l: item.line, c: item.cells } : { v: item.value, l: item.line };
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
        yield line.c ? { value: line.v, line: line.l, cells: line.c } : { value: line.v, line: line.l };
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
