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
import type { PlaClient } from '../client/types.js';
import { changedSince, readCurrentState, type StateSource } from './current-state.js';
import { unchangedSince } from './record-diff.js';
import type { PlanEntry, StoredRecordLike, Watermark } from './types.js';

export interface Conflict {
  entry: PlanEntry;
  reason: string;
}

function idOf(record: StoredRecordLike): number | undefined {
  return typeof record.id === 'number' ? record.id : undefined;
}

export class ConflictChecker {
  private mark: Watermark | undefined;
  /** The newest state seen of each record modified since the plan. */
  private readonly latest = new Map<number, StoredRecordLike>();
  /** Stamps of this apply's own writes: seeing them again is no conflict. */
  private readonly ownStamps = new Map<number, unknown>();
  private chain: Promise<unknown> = Promise.resolve();

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

  /** The entries of a batch whose records changed since the plan (batches are checked one at a time). */
  check(entries: readonly PlanEntry[]): Promise<Conflict[]> {
    const next = this.chain.then(() => this.checkNow(entries));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async checkNow(entries: readonly PlanEntry[]): Promise<Conflict[]> {
    const watched = entries.filter((entry) => entry.before !== undefined && entry.id !== undefined);
    if (watched.length === 0) return [];
    if (this.mark) return this.byWatermark(watched, this.mark);
    const current = await readCurrentState(this.client, this.source, watched.map((entry) => entry.id as number), { signal: this.signal });
    const conflicts: Conflict[] = [];
    for (const entry of watched) {
      const now = current.get(entry.id as number);
      if (!now) conflicts.push({ entry, reason: 'conflict: deleted since the plan was made' });
      else if (!unchangedSince(entry.before as StoredRecordLike, now)) conflicts.push({ entry, reason: 'conflict: changed since the plan was made' });
    }
    return conflicts;
  }

  private async byWatermark(watched: PlanEntry[], mark: Watermark): Promise<Conflict[]> {
    const { records, newest } = await changedSince(this.client, this.source.list, mark, this.signal);
    for (const record of records) {
      const id = idOf(record);
      if (id !== undefined) this.latest.set(id, record);
    }
    this.mark = { field: mark.field, value: newest };
    const conflicts: Conflict[] = [];
    for (const entry of watched) {
      const now = this.latest.get(entry.id as number);
      if (!now) continue;
      const stamp = now[mark.field];
      if (stamp === (entry.before as StoredRecordLike)[mark.field] || stamp === this.ownStamps.get(entry.id as number)) continue;
      conflicts.push({ entry, reason: `conflict: changed since the plan was made (${mark.field} ${String(stamp)}, the plan saw ${String((entry.before as StoredRecordLike)[mark.field])})` });
    }
    return conflicts;
  }
}
