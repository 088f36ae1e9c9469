import { fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { StoreCorruptError } from './errors.js';
import { JOURNAL_FILE } from './journal.js';
import { parseJournalEntry } from './journal-entry.js';
import type { JournalEntry } from './journal-entry.js';
import { scanJournalLine } from './journal-scan.js';
import type { ScannedEntry } from './journal-scan.js';
import { forEachLineChunk } from './line-reader.js';
import type { StoreState } from './store-state.js';

/** Where the readable journal ends, for the writer to continue from. */
export interface ReplayResult {
  validBytes: number;
  entries: number;
  /** The last entry is whole but lacks its newline (the crash came just before it). */
  needsNewline: boolean;
}

/**
 * Applies the journal's entries after the snapshot's `seq` to `state`.
 *
 * A last line that does not parse is a torn append (the process died mid-write, so the
 * entry was never acknowledged): it is dropped with a warning. A bad line with more
 * entries after it is damage, and an error naming the line: starting would silently
 * lose the entries after it. So is a gap in the sequence numbers.
 */
export async function replayJournal(dir: string, state: StoreState, warn: (message: string) => void): Promise<ReplayResult> {
  const path = join(dir, JOURNAL_FILE);
  const result: ReplayResult = { validBytes: 0, entries: 0, needsNewline: false };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw error;
  }
  let bad: { number: number; why: string } | undefined;
  let previousSeq: number | undefined;
  let number = 0;
  const fail = (line: number, why: string): never => {
    throw new StoreCorruptError(`${path} line ${line}: ${why}`, {
      hint: 'the journal is damaged in the middle; restore the data folder from a backup',
    });
  };
  /** One line, `bytes[from, to)`, ending at `end` in the file. */
  const onLine = (bytes: Buffer, text: string, offset: number, from: number, to: number, terminated: boolean) => {
    number++;
    const end = offset + to + (terminated ? 1 : 0);
    // Lines as this store writes them are read over their bytes, records left in the
    // file; anything else is parsed, refused or reported as a torn tail here.
    let entry: JournalEntry | ScannedEntry | undefined = bad === undefined ? scanJournalLine(bytes, text, from, to, offset) : undefined;
    if (entry === undefined) {
      const text = bytes.toString('utf8', from, to);
      if (text.trim() === '') {
        if (bad === undefined) result.validBytes = end;
        return;
      }
      if (bad !== undefined) fail(bad.number, bad.why);
      try {
        entry = parseJournalEntry(text);
      } catch (error) {
        bad = { number, why: (error as Error).message };
        return;
      }
    }
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
  // The records stay in the file: the store's pack holds it open from now on.
  state.packed.adoptJournal(fd);
  forEachLineChunk(fd, fstatSync(fd).size, (bytes, offset) => {
    // The chunk as text, a character a byte: its lines found by the string's indexOf
    // (a Buffer's costs a microsecond a call until optimised) and read by `scanJournalLine`.
    const text = bytes.toString('latin1');
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      onLine(bytes, text, offset, from, newline, true);
      from = newline + 1;
    }
    if (from < bytes.length) onLine(bytes, text, offset, from, bytes.length, false);
  });
  if (bad !== undefined) {
    warn(`store: dropped a torn last entry at ${path} line ${bad.number} (${bad.why}); it was never acknowledged`);
  }
  return result;
}
