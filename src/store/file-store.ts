import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { acquireDataLock } from './data-lock.js';
import type { DataLock } from './data-lock.js';
import { fsyncDir, removeLeftover } from './durable-fs.js';
import { StoreFullError, StoreUnavailableError, isOutOfSpace } from './errors.js';
import { JOURNAL_FILE, JOURNAL_TEMP_FILE, JournalWriter } from './journal.js';
import { checkChanges, parseJournalEntry } from './journal-entry.js';
import type { JournalEntry } from './journal-entry.js';
import { frameEntry } from './journal-frame.js';
import { DROP_JOURNAL_FLAG, replayJournal } from './journal-replay.js';
import type { ReplayResult } from './journal-replay.js';
import { readSnapshot, SNAPSHOT_TEMP_FILE, writeSnapshot } from './snapshot.js';
import { SNAPSHOT_INDEX_TEMP_FILE } from './snapshot-index.js';
import { LEGACY_SNAPSHOT_FILE, LEGACY_SNAPSHOT_TEMP_FILE, readLegacySnapshot } from './snapshot-legacy.js';
import { StoreState } from './store-state.js';
import { applyUndo, undoOf, withoutUnconfirmed, type Unconfirmed } from './undo.js';
import type { TableQuery } from './table.js';
import type { Change, CollectionName, PageResult, RecordId, StoredRecord } from './types.js';

/** Journal size beyond which a compaction starts (in the background). */
const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;
const DEFAULT_COMPACT_ENTRIES = 200_000;

/** Options of the file store. */
export interface FileStoreOptions {
  /** Data folder; created when missing. */
  dir: string;
  /** Fields to keep an equality index on, per collection (e.g. notifications → forUserId). */
  indexes?: Partial<Record<CollectionName, readonly string[]>>;
  /** Warnings (torn journal tail, leftover temp files) go here; default stderr. */
  warn?: (message: string) => void;
  /** Called once if the folder's lock is lost (another process took it): the data in memory may be stale from then on. */
  onLockLost?: (problem: string) => void;
  /**
   * The journal line start-up refused as damaged: start from the lines before it, the
   * rest moved to a file beside the journal (`pla server start --drop-journal-from`).
   */
  dropJournalFrom?: number;
  /** Compact once the journal holds this many bytes (default 64 MB)… */
  compactAfterBytes?: number;
  /** …or this many entries (default 200,000). */
  compactAfterEntries?: number;
}

function defaultWarn(message: string): void {
  process.stderr.write(`${message}\n`);
}

/**
 * Opens the data folder: takes its lock, loads `snapshot.json`, replays
 * `journal.ndjson` (see `replayJournal` for what is recovered and what is refused) and
 * gets ready to append. Throws `StoreLockedError` when another process holds the folder
 * and `StoreCorruptError` when its files are damaged.
 */
export async function openFileTables(options: FileStoreOptions): Promise<FileTables> {
  const warn = options.warn ?? defaultWarn;
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  const lock = await acquireDataLock(options.dir, warn, options.onLockLost);
  let state: StoreState | undefined;
  try {
    for (const leftover of [SNAPSHOT_TEMP_FILE, SNAPSHOT_INDEX_TEMP_FILE, LEGACY_SNAPSHOT_TEMP_FILE, JOURNAL_TEMP_FILE])
      await removeLeftover(join(options.dir, leftover), warn);
    state = new StoreState(options.indexes);
    const snapshot = await readSnapshot(options.dir, state);
    const upgrading = snapshot === undefined && (await readLegacySnapshot(options.dir, state));
    const replay = await replayJournal(options.dir, state, { warn, ...(options.dropJournalFrom ? { dropFrom: options.dropJournalFrom } : {}) });
    // The snapshot's checksum, verified meanwhile on another thread when its index was used: before anything is served.
    await snapshot?.checked;
    if (upgrading) await upgradeSnapshot(options.dir, state, warn);
    else await removeUpgraded(options.dir, warn);
    if (replay.dropped) await keepDropped(options.dir, replay.dropped, warn);
    else if (options.dropJournalFrom) warn(`store: ${DROP_JOURNAL_FLAG} ${options.dropJournalFrom}: that journal line is not damaged; nothing was left out`);
    const journal = await JournalWriter.open(options.dir, replay.validBytes, replay.entries, replay.needsNewline);
    if (replay.unframed > 0) await upgradeJournal(options.dir, state, journal, warn);
    return new FileTables(options, warn, lock, state, journal);
  } catch (error) {
    state?.packed.close();
    await lock.release();
    throw error;
  }
}

/**
 * Writes the state read from a `pla-store/1` snapshot (and the journal after it) as a
 * `pla-store/2` snapshot, then removes the old one. A crash in between leaves both:
 * the new one is read, and the old one removed (`removeUpgraded`).
 */
async function upgradeSnapshot(dir: string, state: StoreState, warn: (message: string) => void): Promise<void> {
  await writeSnapshot(dir, state.capture());
  await rm(join(dir, LEGACY_SNAPSHOT_FILE));
  await fsyncDir(dir);
  warn(
    `store: upgraded ${join(dir, LEGACY_SNAPSHOT_FILE)} to the faster snapshot format of this pla (now snapshot.pla); older pla versions cannot read this folder any more`,
  );
}

/**
 * Journal lines of a pla before checksums: the state they built is written as a
 * snapshot and the journal started anew, every line of it checksummed from now on. A
 * crash in between leaves the new snapshot beside the old journal, whose entries it
 * holds (replay skips them), and the next start upgrades again.
 */
async function upgradeJournal(dir: string, state: StoreState, journal: JournalWriter, warn: (message: string) => void): Promise<void> {
  await writeSnapshot(dir, state.capture());
  await journal.exclusive(() => journal.replaceWithCarry());
  warn(`store: upgraded ${join(dir, JOURNAL_FILE)} to checksummed entries (its entries are now in snapshot.pla)`);
}

/**
 * Copies the journal from the damaged line `--drop-journal-from` named to its end into
 * `journal-dropped-<time>.ndjson` (fsynced) before the journal is cut there: nothing
 * is lost that its owner may want to look at or piece together.
 */
async function keepDropped(dir: string, dropped: NonNullable<ReplayResult['dropped']>, warn: (message: string) => void): Promise<void> {
  const name = `journal-dropped-${new Date().toISOString().replace(/[:.]/g, '-')}.ndjson`;
  const dropping = (await readFile(join(dir, JOURNAL_FILE))).subarray(dropped.byte);
  const target = await open(join(dir, name), 'wx', 0o600);
  try {
    await target.writeFile(dropping);
    await target.sync();
  } finally {
    await target.close();
  }
  await fsyncDir(dir);
  warn(
    `store: started from the journal's first ${dropped.line - 1} lines, as ${DROP_JOURNAL_FLAG} ${dropped.line} asked; the ${dropped.lines} line${dropped.lines === 1 ? '' : 's'} from line ${dropped.line} on are in ${join(dir, name)}`,
  );
}

/** Removes a `pla-store/1` snapshot an upgrade already replaced (it was interrupted before removing it). */
async function removeUpgraded(dir: string, warn: (message: string) => void): Promise<void> {
  try {
    await rm(join(dir, LEGACY_SNAPSHOT_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await fsyncDir(dir);
  warn(`store: removed ${join(dir, LEGACY_SNAPSHOT_FILE)}, which an interrupted upgrade had already replaced with snapshot.pla`);
}

/**
 * The tables of a data folder: in memory, every change in the journal first. Reads
 * are synchronous; `json-store.ts` puts the `Store` interface on top.
 */
export class FileTables {
  private readonly compactAfterBytes: number;
  private readonly compactAfterEntries: number;
  /** Collections whose id counter moved since the last entry recorded it. */
  private readonly unrecordedIds = new Set<CollectionName>();
  private compaction: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  /** Entries applied in memory whose journal write has not succeeded yet, in order, with how to take each back. */
  private readonly unconfirmed: Unconfirmed[] = [];

  constructor(
    private readonly options: FileStoreOptions,
    private readonly warn: (message: string) => void,
    private readonly lock: DataLock,
    private readonly state: StoreState,
    private readonly journal: JournalWriter,
  ) {
    this.compactAfterBytes = options.compactAfterBytes ?? DEFAULT_COMPACT_BYTES;
    this.compactAfterEntries = options.compactAfterEntries ?? DEFAULT_COMPACT_ENTRIES;
    journal.onFlushed = (lastSeq) => {
      while (this.unconfirmed.length && (this.unconfirmed[0] as Unconfirmed).seq <= lastSeq) this.unconfirmed.shift();
      this.compactIfDue();
    };
    journal.onRefused = (firstSeq) => this.takeBack(firstSeq);
  }

  get(collection: CollectionName, id: RecordId): StoredRecord | undefined {
    return this.state.table(collection).get(id);
  }

  page(collection: CollectionName, query: TableQuery): PageResult {
    return this.state.table(collection).page(query);
  }

  /** Records whose `field` equals `value`, in id order (an equality index when the field has one). */
  findBy(collection: CollectionName, field: string, value: unknown): StoredRecord[] {
    return this.state.table(collection).findBy(field, value);
  }

  /** Every record of a collection in id order. */
  all(collection: CollectionName): Iterable<StoredRecord> {
    // A copy, so that writes during the caller's iteration do not shift it.
    return this.state.table(collection).records();
  }

  count(collection: CollectionName): number {
    return this.state.table(collection).size;
  }

  /** Reserves the next id of a collection (increasing, never reused once a change using it is committed). */
  allocateId(collection: CollectionName): RecordId {
    const id = this.state.allocateId(collection);
    this.unrecordedIds.add(collection);
    return id;
  }

  /** Applies the changes atomically (visible at once) and resolves once they are durable. */
  async commit(changes: readonly Change[]): Promise<void> {
    checkChanges(changes);
    if (changes.length === 0) return;
    await this.append({ changes: changes as Change[] });
  }

  /**
   * Removes every record of every collection and then applies `changes` (admin reset:
   * the keys to keep, the seed data), as one journal entry: no reader and no crash ever
   * sees the store empty in between. Id counters are kept.
   */
  async clear(changes: readonly Change[] = []): Promise<void> {
    checkChanges(changes);
    await this.append(changes.length ? { clear: true, changes: changes as Change[] } : { clear: true });
  }

  async close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  /**
   * Journals an entry and applies it. The line is serialized first, so a record that
   * cannot be (a cycle) refuses the commit before anything changes; memory
   * then holds the parsed line, exactly what a restart will rebuild — and an object
   * of the store's own that callers cannot change afterwards.
   */
  private append(body: Omit<JournalEntry, 'seq'>): Promise<void> {
    this.assertWritable();
    const entry: JournalEntry = { seq: this.state.seq + 1, ...body };
    if (this.unrecordedIds.size > 0) {
      entry.ids = {};
      for (const name of this.unrecordedIds) entry.ids[name] = this.state.nextId(name);
    }
    const line = frameEntry(entry);
    const parsed = parseJournalEntry(line);
    this.unconfirmed.push({ seq: entry.seq, undo: undoOf(this.state, parsed), ids: [...this.unrecordedIds] });
    this.state.apply(parsed);
    this.unrecordedIds.clear();
    // Applied before it is durable, so that the next request sees it and the order in
    // memory is the order in the journal; the caller is answered only once it is durable.
    return this.journal.append(`${line}\n`, entry.seq).catch((error: unknown) => {
      throw isOutOfSpace(error) ? new StoreFullError(`no space left on the data folder ${this.options.dir}; nothing was changed`, { cause: error }) : error;
    });
  }

  /**
   * Takes back, newest first, the entries from `firstSeq` on that the journal refused
   * for lack of space: their records leave memory as if never written. Id counters stay
   * where they are (an id handed out is never handed out again) and are recorded by
   * the next entry that is written.
   */
  private takeBack(firstSeq: number): void {
    while (this.unconfirmed.length && (this.unconfirmed[this.unconfirmed.length - 1] as Unconfirmed).seq >= firstSeq) {
      const { undo, ids } = this.unconfirmed.pop() as Unconfirmed;
      applyUndo(this.state, undo);
      for (const name of [...ids, ...undo.collections]) this.unrecordedIds.add(name);
    }
    this.state.seq = firstSeq - 1;
    this.warn(`store: no space left on ${this.options.dir}; the writes from entry ${firstSeq} on were refused and taken back`);
  }

  private assertWritable(): void {
    if (this.closing !== undefined) throw new StoreUnavailableError('the store is closed');
    if (this.journal.failure !== undefined) {
      throw new StoreUnavailableError('the store stopped taking writes after a journal write failed; restart the server', {
        cause: this.journal.failure,
      });
    }
    if (!this.lock.held()) throw new StoreUnavailableError(`the store lost its lock on ${this.options.dir}`);
  }

  private compactIfDue(): void {
    if (this.compaction !== undefined || this.closing !== undefined) return;
    if (this.journal.bytes < this.compactAfterBytes && this.journal.entries < this.compactAfterEntries) return;
    this.compaction = this.compact()
      .catch((error: unknown) => this.warn(`store: compaction failed, the journal keeps everything: ${String(error)}`))
      .finally(() => {
        this.compaction = undefined;
      });
  }

  /**
   * Writes a snapshot of the state as of now while writes go on, then swaps the journal
   * for the entries the snapshot does not hold. A crash at any step leaves a snapshot
   * and a journal that together hold every acknowledged entry once (see docs/store.md).
   */
  private async compact(): Promise<void> {
    // Only what is durable: entries still in flight may yet be refused and taken back.
    const content = withoutUnconfirmed(this.state.capture(), this.unconfirmed);
    this.journal.startCarry(content.seq);
    try {
      await writeSnapshot(this.options.dir, content);
      await this.journal.exclusive(() => this.journal.replaceWithCarry());
    } finally {
      this.journal.stopCarry();
    }
  }

  private async shutDown(): Promise<void> {
    try {
      await this.journal.idle();
      await this.compaction;
      if (this.journal.failure === undefined && this.lock.held() && (this.journal.entries > 0 || this.unrecordedIds.size > 0)) {
        await this.compact();
      }
    } finally {
      await this.journal.close();
      this.state.packed.close();
      await this.lock.release();
    }
  }
}
