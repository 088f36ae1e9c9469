/**
 * Replays of writes carrying an `Idempotency-Key`, durable across restarts and
 * crashes: a repeat of a request (same API key, method, path and
 * `Idempotency-Key`) gets the first request's reply back and changes nothing,
 * whether it comes a second later or after the server was killed and started again.
 *
 * Exactly once needs the key to be stored with the write it belongs to, in the same
 * commit: stored before, a crash in between leaves a key whose write never
 * happened; stored after, a write whose key is lost, applied again on replay. So a
 * keyed request's handler runs against a staging view of the store, whose `commit`
 * only collects the changes; once the reply is known, the changes and a record of
 * the key with that reply go to the store as one commit, and only then is the
 * reply sent. Handlers return straight after their commit, so the staged changes
 * reach the store within the same turn of the event loop.
 *
 * What is kept: requests that changed something (a request that changed nothing can
 * simply run again). A 5xx discards the staged changes and keeps nothing, so a retry
 * runs afresh. A repeat that arrives while the first is still running waits for it.
 *
 * Retention is bounded (`DEFAULT_RETENTION`, documented in docs/server.md): keys are
 * kept for 24 hours, at most 10,000 of them and 64 MB of reply bodies; past that the
 * oldest go first, removed in the commits of new keys. Clients retry or resume
 * within that time, and only the last few batches of a run are ever repeated.
 */
import type { Change, Store, StoredRecord } from '../store/types.js';
import type { Reply } from './reply.js';

/** The store collection holding the kept keys. */
export const IDEMPOTENCY_COLLECTION = 'idempotencyKeys';

/** The field the kept keys are looked up by (an equality index of the store). */
export const SCOPE_FIELD = 'scope';

export interface Retention {
  ttlMs: number;
  maxKeys: number;
  /** Reply bytes kept at most. */
  maxBytes: number;
}

export const DEFAULT_RETENTION: Retention = { ttlMs: 24 * 60 * 60 * 1000, maxKeys: 10_000, maxBytes: 64 * 1024 * 1024 };

/** At most this many old keys are removed by one commit, so that no commit grows large. */
const EVICTIONS_PER_COMMIT = 16;

/** A kept key as the store holds it. */
interface KeptRecord extends StoredRecord {
  scope: string;
  /** Epoch milliseconds of the first request. */
  at: number;
  status: number;
  headers: Record<string, string>;
  /** The reply body as UTF-8 text, or base64 when it was bytes. */
  body?: string;
  bodyEncoding?: 'base64';
}

/** What the memory holds of a kept key, in id (= age) order. */
interface Kept {
  id: number;
  at: number;
  bytes: number;
}

function bytesOf(record: KeptRecord): number {
  return record.scope.length + (record.body?.length ?? 0);
}

function toRecord(id: number, scope: string, at: number, reply: Reply): KeptRecord {
  const record: KeptRecord = { id, scope, at, status: reply.status, headers: reply.headers };
  if (typeof reply.body === 'string') record.body = reply.body;
  else if (reply.body !== undefined) Object.assign(record, { body: reply.body.toString('base64'), bodyEncoding: 'base64' });
  return record;
}

function toReply(record: KeptRecord): Reply {
  const reply: Reply = { status: record.status, headers: record.headers };
  if (record.body !== undefined) reply.body = record.bodyEncoding === 'base64' ? Buffer.from(record.body, 'base64') : record.body;
  return reply;
}

/** A view of `store` whose `commit` collects changes into `staged` instead of writing them. */
function stagingView(store: Store, staged: Change[]): Store {
  const commit = (changes: readonly Change[]): Promise<void> => {
    staged.push(...changes);
    return Promise.resolve();
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'commit') return commit;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The kept keys of one server. */
export class IdempotencyKeys {
  /** Requests running now, by scope: a repeat waits for them. */
  private readonly running = new Map<string, Promise<unknown>>();
  private kept: Kept[] = [];
  private bytes = 0;

  private constructor(
    private readonly store: Store,
    private readonly retention: Retention,
  ) {}

  /** Opens the kept keys of `store` (the store must index `SCOPE_FIELD` of `IDEMPOTENCY_COLLECTION`). */
  static async open(store: Store, retention: Retention = DEFAULT_RETENTION): Promise<IdempotencyKeys> {
    const keys = new IdempotencyKeys(store, retention);
    await keys.reload();
    return keys;
  }

  /** Reads the kept keys again (after an admin reset emptied the store). */
  async reload(): Promise<void> {
    this.kept = [];
    this.bytes = 0;
    for (const record of await this.store.all(IDEMPOTENCY_COLLECTION)) this.remember(record as KeptRecord);
  }

  /**
   * The reply for the request `scope` names: the kept one when this key was seen,
   * else `execute`'s, run against a staging view of the store and committed with
   * the key. `scope` must name the client's key, method, path and `Idempotency-Key`.
   */
  async run(scope: string, execute: (store: Store) => Promise<Reply>): Promise<{ reply: Reply; replayed: boolean }> {
    for (let first = this.running.get(scope); first; first = this.running.get(scope)) await first.catch(() => undefined);
    // Registered in the same turn as the check above finds none: a repeat arriving now waits for this one.
    const attempt = this.replayOrExecute(scope, execute);
    this.running.set(scope, attempt);
    try {
      return await attempt;
    } finally {
      if (this.running.get(scope) === attempt) this.running.delete(scope);
    }
  }

  private async replayOrExecute(scope: string, execute: (store: Store) => Promise<Reply>): Promise<{ reply: Reply; replayed: boolean }> {
    const known = await this.find(scope);
    if (known) return { reply: toReply(known), replayed: true };
    return { reply: await this.execute(scope, execute), replayed: false };
  }

  private async execute(scope: string, execute: (store: Store) => Promise<Reply>): Promise<Reply> {
    const staged: Change[] = [];
    const reply = await execute(stagingView(this.store, staged));
    // A failure applies nothing and keeps nothing, so a retry runs afresh; a request
    // that changed nothing can run again as well.
    if (reply.status >= 500 || staged.length === 0) return reply;
    const now = Date.now();
    const record = toRecord(this.store.allocateId(IDEMPOTENCY_COLLECTION), scope, now, reply);
    // Forgotten before the commit, so that keys committing at the same time never evict the same ones.
    const evicted = this.forgetOldest(now, bytesOf(record));
    this.remember(record);
    const removals = evicted.map((id): Change => ({ op: 'delete', collection: IDEMPOTENCY_COLLECTION, id }));
    try {
      await this.store.commit([...staged, ...removals, { op: 'put', collection: IDEMPOTENCY_COLLECTION, record }]);
    } catch (error) {
      // Nothing was written: the memory of what is kept follows the store again.
      await this.reload().catch(() => undefined);
      throw error;
    }
    return reply;
  }

  private async find(scope: string): Promise<KeptRecord | undefined> {
    const [record] = (await this.store.findBy(IDEMPOTENCY_COLLECTION, SCOPE_FIELD, scope)) as KeptRecord[];
    if (!record || record.at < Date.now() - this.retention.ttlMs) return undefined;
    return record;
  }

  /** Forgets the oldest keys so that one more of `adding` bytes fits (and expired ones); their ids, to delete. */
  private forgetOldest(now: number, adding: number): number[] {
    const ids: number[] = [];
    for (const old of this.kept) {
      if (ids.length === EVICTIONS_PER_COMMIT) break;
      const full = this.kept.length - ids.length + 1 > this.retention.maxKeys || this.bytes + adding > this.retention.maxBytes;
      if (!full && old.at >= now - this.retention.ttlMs) break;
      ids.push(old.id);
      this.bytes -= old.bytes;
    }
    this.kept.splice(0, ids.length);
    return ids;
  }

  private remember(record: KeptRecord): void {
    const bytes = bytesOf(record);
    this.kept.push({ id: record.id, at: record.at, bytes });
    this.bytes += bytes;
  }
}
