/**
 * Before each batch `pla apply` sends, the records it touches must still be as the
 * plan saw them; a record someone changed since is a conflict and is not written.
 *
 * With a watermark (records carry `updatedAt` and the list sorts by it), one
 * request per batch lists everything modified since the last look, newest first,
 * and usually finds nothing but this apply's own writes. Without one, the batch's
 * records are read again (by pages or a GET each, whichever is cheaper) and
 * compared whole.
 */
import { type RecordId, toRecordId } from '../contract/ids.js';
import type { PlaClient } from '../client/types.js';
import { changedSince, readCurrentState, type StateSource } from './current-state.js';
import { unchangedSince } from './record-diff.js';
import type { PlanEntry, StoredRecordLike, Watermark } from './types.js';

export interface Conflict {
  entry: PlanEntry;
  reason: string;
}

const idOf = (record: StoredRecordLike): RecordId | undefined => toRecordId(record.id);

export class ConflictChecker {
  private mark: Watermark | undefined;
  /** The newest state seen of each record modified since the plan. */
  private readonly latest = new Map<RecordId, StoredRecordLike>();
  /** Stamps of this apply's own writes: seeing them again is no conflict. */
  private readonly ownStamps = new Map<RecordId, unknown>();
  /** The read of recent changes under way, and the one queued after it (shared by every batch waiting). */
  private reading: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    private readonly client: PlaClient,
    private readonly source: StateSource,
    watermark: Watermark | undefined,
    private readonly signal?: AbortSignal,
  ) {
    this.mark = watermark;
  }

  /** Remembers what this apply wrote, so its own stamp is not taken for someone else's change. */
  wrote(after: unknown): void {
    if (!this.mark || typeof after !== 'object' || after === null) return;
    const record = after as StoredRecordLike;
    const id = idOf(record);
    if (id !== undefined) this.ownStamps.set(id, record[this.mark.field]);
  }

  /** The entries of a batch whose records changed since the plan, as of a read begun after this call. */
  async check(entries: readonly PlanEntry[]): Promise<Conflict[]> {
    const watched = entries.filter((entry) => entry.before !== undefined && entry.id !== undefined);
    if (watched.length === 0) return [];
    if (this.mark) {
      await this.refresh();
      return this.byWatermark(watched, this.mark);
    }
    const current = await readCurrentState(
      this.client,
      this.source,
      watched.map((entry) => entry.id as RecordId),
      { signal: this.signal },
    );
    const conflicts: Conflict[] = [];
    for (const entry of watched) {
      const now = current.get(entry.id as RecordId);
      if (!now) conflicts.push({ entry, reason: 'conflict: deleted since the plan was made' });
      else if (!unchangedSince(entry.before as StoredRecordLike, now)) conflicts.push({ entry, reason: 'conflict: changed since the plan was made' });
    }
    return conflicts;
  }

  /**
   * Reads what changed since the last read. A read already under way began before
   * this call and cannot vouch for it, so the caller waits for the next one; every
   * batch that asks meanwhile shares that next read (with several batches in
   * flight, one request serves them all).
   */
  private refresh(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.reading) return this.startRead();
    this.queued = this.reading
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.startRead();
      });
    return this.queued;
  }

  private startRead(): Promise<void> {
    const read = this.readChanges().finally(() => {
      if (this.reading === read) this.reading = undefined;
    });
    this.reading = read;
    return read;
  }

  private async readChanges(): Promise<void> {
    const mark = this.mark as Watermark;
    const { records, newest } = await changedSince(this.client, this.source.list, mark, this.signal);
    for (const record of records) {
      const id = idOf(record);
      if (id !== undefined) this.latest.set(id, record);
    }
    this.mark = { field: mark.field, value: newest };
  }

  private byWatermark(watched: PlanEntry[], mark: Watermark): Conflict[] {
    const conflicts: Conflict[] = [];
    for (const entry of watched) {
      const now = this.latest.get(entry.id as RecordId);
      if (!now) continue;
      const stamp = now[mark.field];
      if (stamp === (entry.before as StoredRecordLike)[mark.field] || stamp === this.ownStamps.get(entry.id as RecordId)) continue;
      conflicts.push({
        entry,
        reason: `conflict: changed since the plan was made (${mark.field} ${String(stamp)}, the plan saw ${String((entry.before as StoredRecordLike)[mark.field])})`,
      });
    }
    return conflicts;
  }
}
