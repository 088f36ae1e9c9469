/**
 * Records naming the same id twice: which one should win is not pla's to guess.
 * Identical rows are sent once (the later ones said and counted as repeats);
 * rows naming one id with different values are all refused as ambiguous, the
 * first as well as the later ones, so none of them is sent. That takes knowing
 * every id before the first batch goes: a first pass over the input keeps each
 * id with a short hash of its record, and only the duplicated ids after it.
 */
import { createHash } from 'node:crypto';
import { recordIdOf } from '../../contract/ids.js';
import { jsonText } from '../../json/json-text.js';
import type { SourceItem } from './types.js';

/** What becomes of one record naming an id. */
export type DuplicateVerdict = { kind: 'only' } | { kind: 'first' } | { kind: 'repeat'; of: number } | { kind: 'ambiguous'; lines: number[] };

interface Duplicated {
  lines: number[];
  ambiguous: boolean;
}

function keyOf(record: Record<string, unknown>): string | undefined {
  const id = recordIdOf(record.id);
  return id === 'none' || id === 'unreadable' ? undefined : String(id);
}

/** A csv cell a spreadsheet writes for a boolean: Excel's `TRUE`, `False`. */
const BOOLEAN_CELL = /^(?:true|false)$/i;

/**
 * 72 bits of the record's SHA-1: two different records share one by chance less
 * than once in 10^21. Csv cells spelling a boolean in any case (`TRUE`, `true`)
 * count as that boolean: where the stored value is a boolean both are sent as it
 * (plan/stored-types.ts), so rows differing only there are repeats, not ambiguous.
 */
function digest({ value, cells }: SourceItem<Record<string, unknown>>): string {
  let record = value;
  for (const [field, text] of Object.entries(cells ?? {})) if (BOOLEAN_CELL.test(text)) record = { ...record, [field]: text.toLowerCase() === 'true' };
  return createHash('sha1')
    .update(jsonText(record) ?? '')
    .digest('base64')
    .slice(0, 12);
}

/** The ids of a pass over the input, noted as it goes: the first line of each, and the ids named twice. */
export class IdScan {
  private readonly first = new Map<string, number>();
  private readonly duplicated = new Map<string, Duplicated>();

  add({ value, line }: SourceItem<Record<string, unknown>>): void {
    const key = keyOf(value);
    if (key === undefined) return;
    const seen = this.first.get(key);
    if (seen === undefined) {
      this.first.set(key, line);
      return;
    }
    const entry = this.duplicated.get(key) ?? { lines: [seen], ambiguous: false };
    entry.lines.push(line);
    this.duplicated.set(key, entry);
  }

  /** The verdicts: `read` (the input afresh) is read once more only when an id was named twice. */
  finish(read: () => AsyncIterable<SourceItem<Record<string, unknown>>>): Promise<DuplicateIds> {
    this.first.clear();
    return DuplicateIds.judge(this.duplicated, read);
  }
}

export class DuplicateIds {
  private constructor(private readonly duplicated: ReadonlyMap<string, Duplicated>) {}

  /**
   * Reads the input (`read` reads it afresh each time) and keeps what is needed to
   * judge each record of a later pass: one pass keeps the ids only; only when an id
   * is named twice does a second pass hash the records of the ids named twice.
   */
  static async scan(read: () => AsyncIterable<SourceItem<Record<string, unknown>>>): Promise<DuplicateIds> {
    const ids = new IdScan();
    for await (const item of read()) ids.add(item);
    return ids.finish(read);
  }

  /** Judges from ids noted by `IdScan` (no pass of its own for them); `read` is read only when an id was named twice. */
  static async judge(duplicated: Map<string, Duplicated>, read: () => AsyncIterable<SourceItem<Record<string, unknown>>>): Promise<DuplicateIds> {
    if (duplicated.size === 0) return new DuplicateIds(duplicated);
    const hashes = new Map<string, string>();
    for await (const item of read()) {
      const key = keyOf(item.value);
      const entry = key === undefined ? undefined : duplicated.get(key);
      if (!entry || key === undefined) continue;
      const hash = digest(item);
      const earlier = hashes.get(key);
      if (earlier === undefined) hashes.set(key, hash);
      else if (earlier !== hash) entry.ambiguous = true;
    }
    return new DuplicateIds(duplicated);
  }

  /** Whether any id was named twice. */
  get any(): boolean {
    return this.duplicated.size > 0;
  }

  /** The verdict on the record read on `line`. */
  verdict(record: Record<string, unknown>, line: number): DuplicateVerdict {
    const key = keyOf(record);
    const entry = key === undefined ? undefined : this.duplicated.get(key);
    if (!entry) return { kind: 'only' };
    if (entry.ambiguous) return { kind: 'ambiguous', lines: entry.lines };
    const first = entry.lines[0] as number;
    return line === first ? { kind: 'first' } : { kind: 'repeat', of: first };
  }
}
