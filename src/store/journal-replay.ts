import { fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { StoreCorruptError } from './errors.js';
import { JOURNAL_FILE } from './journal.js';
import { parseJournalEntry } from './journal-entry.js';
import type { JournalEntry } from './journal-entry.js';
import { lineKind, readFramedLine } from './journal-frame.js';
import type { ScannedEntry } from './journal-frame.js';
import { forEachLineChunk } from './line-reader.js';
import type { StoreState } from './store-state.js';

/** Where the readable journal ends, for the writer to continue from. */
export interface ReplayResult {
  validBytes: number;
  entries: number;
  /** The last entry is whole but lacks its newline (the crash came just before it). */
  needsNewline: boolean;
  /** Entries of a pla before checksums: the folder is upgraded (compacted) before it takes writes. */
  unframed: number;
  /** What `dropFrom` left out: the damaged line it starts at, and its byte in the file. */
  dropped?: { line: number; byte: number; lines: number };
}

/** How to read the journal. */
export interface ReplayOptions {
  warn: (message: string) => void;
  /**
   * The line (1-based) replay refused as damaged, to start from the lines before it
   * instead: what the owner of a damaged folder says after keeping a copy of it. Only
   * a damaged line is ever dropped; on a journal without damage there, it does nothing.
   */
  dropFrom?: number;
}

/** The option of `pla server start` that `dropFrom` comes from, for hints. */
export const DROP_JOURNAL_FLAG = '--drop-journal-from';

const NEWLINE = 0x0a;

/** Whether `bytes[from, to)` holds only spaces, tabs and carriage returns. */
function isBlank(bytes: Buffer, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (bytes[at] !== 0x20 && bytes[at] !== 0x09 && bytes[at] !== 0x0d) return false;
  return true;
}

/** A damaged line, and how many lines follow it. */
interface Damage {
  line: number;
  byte: number;
  why: string;
  after: number;
}

/**
 * Applies the journal's entries after the snapshot's `seq` to `state`.
 *
 * Each line carries the checksum of its entry (`journal-frame.ts`). A last line cut
 * short (no newline, and no matching checksum) is a torn append: the process died
 * mid-write, so the entry was never acknowledged; it is dropped with a warning. A
 * whole line whose checksum does not match is damage, wherever it is: the start is
 * refused, naming the file, the line and its byte, and the folder is left as found;
 * so is a line that does not parse with more after it, and a gap in the sequence
 * numbers. Lines of a pla before checksums are parsed in full.
 */
export async function replayJournal(dir: string, state: StoreState, options: ReplayOptions): Promise<ReplayResult> {
  const path = join(dir, JOURNAL_FILE);
  const result: ReplayResult = { validBytes: 0, entries: 0, needsNewline: false, unframed: 0 };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  /** A last line that does not read: torn, unless more lines follow it. */
  let torn: Omit<Damage, 'after'> | undefined;
  /** The first damaged line; the lines after it are only counted. */
  let damage: Damage | undefined;
  let previousSeq: number | undefined;
  let number = 0;
  const fail = (line: number, why: string): never => {
    throw new StoreCorruptError(`${path} line ${line}: ${why}`, { hint: 'the journal is damaged in the middle; restore the data folder from a backup' });
  };
  const apply = (entry: JournalEntry | ScannedEntry, end: number, terminated: boolean) => {
    if (previousSeq !== undefined && entry.seq !== previousSeq + 1) {
      fail(number, `entry ${entry.seq} follows entry ${previousSeq}`);
    }
    previousSeq = entry.seq;
    if (entry.seq > state.seq) {
      if (entry.seq !== state.seq + 1) {
        fail(number, `entries ${state.seq + 1}–${entry.seq - 1} are missing (the snapshot ends at ${state.seq})`);
      }
      state.apply(entry);
    }
    result.validBytes = end;
    result.entries++;
    result.needsNewline = !terminated;
  };
  /** One line, `bytes[from, to)`, at `offset + from` in the file; `framed`, its entry when `readFramedLine` read it. */
  const onLine = (bytes: Buffer, offset: number, from: number, to: number, terminated: boolean, framed: ScannedEntry | undefined) => {
    number++;
    if (damage !== undefined) {
      damage.after++;
      return;
    }
    const end = offset + to + (terminated ? 1 : 0);
    const kind = framed === undefined ? lineKind(bytes, from, to) : 'framed';
    if (kind !== 'framed' && isBlank(bytes, from, to)) {
      if (torn === undefined) result.validBytes = end;
      return;
    }
    if (torn !== undefined) {
      damage = { ...torn, after: 1 };
      return;
    }
    if (kind === 'framed') {
      // A line of another form than `frameEntry`'s (an id past 2^53) is parsed in full; its checksum matched.
      apply(framed ?? parseFramed(bytes.toString('utf8', from, to), number, fail), end, terminated);
    } else if (kind === 'unframed') {
      let entry: JournalEntry;
      try {
        entry = parseJournalEntry(bytes.toString('utf8', from, to));
      } catch (error) {
        torn = { line: number, byte: offset + from, why: (error as Error).message };
        return;
      }
      apply(entry, end, terminated);
      result.unframed++;
    } else if (!terminated) {
      torn = { line: number, byte: offset + from, why: 'cut short' };
    } else {
      damage = {
        line: number,
        byte: offset + from,
        why: `the entry at byte ${offset + from} does not match its checksum (changed after it was written)`,
        after: 0,
      };
    }
  };
  // The records stay in the file: the store's pack holds it open from now on.
  state.packed.adoptJournal(fd);
  forEachLineChunk(fd, fstatSync(fd).size, (bytes, offset) => {
    // A line as this store writes it is read entry first, stepping over its records by
    // their lengths: its end is found on the way, and its bytes are not searched.
    for (let from = 0; from < bytes.length;) {
      const framed = readFramedLine(bytes, from, bytes.length, offset);
      const newline = framed === undefined ? bytes.indexOf(NEWLINE, from) : framed.end < bytes.length ? framed.end : -1;
      const to = newline === -1 ? bytes.length : newline;
      onLine(bytes, offset, from, to, newline !== -1, framed?.entry);
      from = to + 1;
    }
  });
  if (damage !== undefined) {
    if (options.dropFrom === damage.line) {
      result.dropped = { line: damage.line, byte: damage.byte, lines: damage.after + 1 };
    } else {
      throw damaged(path, damage);
    }
  } else if (torn !== undefined) {
    options.warn(`store: dropped a torn last entry at ${path} line ${torn.line} (${torn.why}); it was never acknowledged`);
  }
  return result;
}

/** The refusal of a damaged journal: what is wrong, where, and the two ways on. */
function damaged(path: string, { line, why, after }: Damage): StoreCorruptError {
  const left = after === 0 ? 'this entry' : `this entry and the ${plural(after, 'line')} after it`;
  const kept = line === 1 ? 'the snapshot alone' : `the ${plural(line - 1, 'line')} before it`;
  return new StoreCorruptError(`${path} line ${line}: ${why}`, {
    hint:
      `nothing in the data folder was changed; keep a copy of it. Then restore it from a backup, or start once with ${DROP_JOURNAL_FLAG} ${line} ` +
      `to leave out ${left} and start from ${kept} (what is left out is kept in a file beside the journal)`,
  });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A framed line of a form replay does not step through: parsed as the entry it is (its checksum matched). */
function parseFramed(text: string, number: number, fail: (line: number, why: string) => never): JournalEntry {
  try {
    return parseJournalEntry(text);
  } catch (error) {
    return fail(number, (error as Error).message);
  }
}
