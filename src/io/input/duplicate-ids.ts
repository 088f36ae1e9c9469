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
import { jsonText } from '../json-text.js';
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

/** 72 bits of the record's SHA-1: two different records share one by chance less than once in 10^21. */
function digest(record: Record<string, unknown>): string {
  return createHash('sha1').update(jsonText(record) ?? '').digest('base64').slice(0, 12);
}

export class DuplicateIds {
  private constructor(private readonly duplicated: ReadonlyMap<string, Duplicated>) {}

  /** Reads `items` once and keeps what is needed to judge each record of a second pass. */
  static async scan(items: AsyncIterable<SourceItem<Record<string, unknown>>>): Promise<DuplicateIds> {
    const first = new Map<string, { line: number; hash: string }>();
    const duplicated = new Map<string, Duplicated>();
    for await (const { value, line } of items) {
      const key = keyOf(value);
      if (key === undefined) continue;
      const seen = first.get(key);
      if (!seen) {
        first.set(key, { line, hash: digest(value) });
        continue;
      }
      const entry = duplicated.get(key) ?? { lines: [seen.line], ambiguous: false };
      entry.lines.push(line);
      if (digest(value) !== seen.hash) entry.ambiguous = true;
      duplicated.set(key, entry);
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
