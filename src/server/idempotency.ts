/**
 * Replays of writes carrying an `Idempotency-Key`, durable across restarts and
 * crashes: a repeat of a request (same API key, method, path and
 * `Idempotency-Key`) gets the first request's reply back and changes nothing,
 * whether it comes a second later or after the server was killed and started again.
 *
 * Exactly once needs the key to be stored with the write it belongs to, in the same
 * transaction: stored before, a crash in between leaves a key whose write never
 * happened; stored after, a write whose key is lost, applied again on replay. But
 * the reply is only known once the handler has finished, after its transaction.
 * So a keyed request's handler sees a view of the store whose `transaction` runs
 * the work in a real transaction and hands the work's result back at once, while
 * keeping that transaction open; once the reply is known, the key with the reply
 * is put in the same transaction, which then commits, and only then is the reply
 * sent. A transaction that staged nothing (an id allocation) is not held. Further
 * transactions of the same request join the held one; reads go through it.
 *
 * The held transaction first takes a lock named after the key and looks the key up
 * again, so two processes on one database (PostgreSQL) never both run a request.
 *
 * What is kept: requests that changed something (a request that changed nothing can
 * simply run again). A 5xx rolls the changes back and keeps nothing, so a retry
 * runs afresh. A repeat arriving while the first still runs here waits for it.
 *
 * Retention is bounded (`DEFAULT_RETENTION`, documented in docs/server.md): keys are
 * kept for 24 hours, at most 10,000 of them and 64 MB of reply bodies; past that the
 * oldest go first, removed in the transactions of new keys. Clients retry or resume
 * within that time, and only the last few batches of a run are ever repeated.
 */
import type { RecordId } from '../contract/ids.js';
import type { Store, StoredRecord, StoreReader, Transaction } from '../store/types.js';
import { HttpProblem } from './problem.js';
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

/** At most this many old keys are removed by one transaction, so that none grows large. */
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
  id: RecordId;
  at: number;
  bytes: number;
}

function bytesOf(record: KeptRecord): number {
  return record.scope.length + (record.body?.length ?? 0);
}

function toRecord(id: RecordId, scope: string, at: number, reply: Reply): KeptRecord {
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

/** Thrown inside the held transaction to apply nothing (a 5xx, or the key turned out to be known). */
class Rollback extends HttpProblem {
  constructor() {
    super(409, 'rolled back');
  }
}

/** A transaction that notes whether anything was staged on it. */
function noting(tx: Transaction, staged: () => void): Transaction {
  return new Proxy(tx, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== 'put' && property !== 'delete' && property !== 'clear') return bound;
      return (...args: unknown[]) => {
        staged();
        return bound(...args);
      };
    },
  });
}

/** One keyed request: the store view its handler sees, and the transaction held for its key. */
class KeyedRequest {
  /** The key found already committed (by another process) once the transaction had its lock. */
  replay: KeptRecord | undefined;
  /** The transaction held open until the reply is known, and its commit. */
  private held: Transaction | undefined;
  private heldCommit: Promise<void> | undefined;
  private release: (reply: Reply | undefined) => void = () => {};
  private readonly replyKnown = new Promise<Reply | undefined>((resolve) => (this.release = resolve));

  constructor(
    private readonly store: Store,
    private readonly scope: string,
    /** Puts the key with its reply in the held transaction (and removes old keys). */
    private readonly keep: (tx: Transaction, reply: Reply) => Promise<void>,
    /** The live kept record of the key among those `reader` holds. */
    private readonly lookUp: (reader: StoreReader) => Promise<KeptRecord | undefined>,
  ) {}

  /** The store as the handler sees it. */
  view(): Store {
    const transaction = <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => this.transaction(work);
    const reads: ReadonlySet<PropertyKey> = new Set(['get', 'getMany', 'page', 'find', 'count']);
    return new Proxy(this.store, {
      get: (target, property) => {
        if (property === 'transaction') return transaction;
        // Reads see what the held transaction staged (the store itself does not have it yet).
        const reader = this.held && reads.has(property) ? this.held : target;
        const value: unknown = Reflect.get(reader, property, reader);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(reader) : value;
      },
    });
  }

  /** Commits the held transaction with `reply` (rolls it back for a 5xx or none); resolves once durable. */
  async finish(reply: Reply | undefined): Promise<void> {
    this.release(reply);
    try {
      await this.heldCommit;
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
  }

  private transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    if (this.held) return work(this.held);
    return new Promise<T>((resolveWork, rejectWork) => {
      let handedBack = false;
      const committed = this.store.transaction(async (tx) => {
        await tx.lock(`pla:idempotency:${this.scope}`);
        const known = await this.lookUp(tx);
        if (known) {
          this.replay = known;
          throw new Rollback();
        }
        let staged = false;
        const watched = noting(tx, () => (staged = true));
        const result = await work(watched);
        handedBack = true;
        resolveWork(result);
        if (!staged) return;
        this.held = watched;
        this.heldCommit = committed;
        const reply = await this.replyKnown;
        if (reply === undefined || reply.status >= 500) throw new Rollback();
        await this.keep(tx, reply);
      });
      committed.catch((error: unknown) => {
        if (!handedBack) rejectWork(error);
      });
    });
  }
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

  /** Opens the kept keys of `store` (which should index `SCOPE_FIELD` of `IDEMPOTENCY_COLLECTION`). */
  static async open(store: Store, retention: Retention = DEFAULT_RETENTION): Promise<IdempotencyKeys> {
    const keys = new IdempotencyKeys(store, retention);
    await keys.reload();
    return keys;
  }

  /** Reads the kept keys again (after an admin reset emptied the store). */
  async reload(): Promise<void> {
    const records = (await this.store.find(IDEMPOTENCY_COLLECTION)) as KeptRecord[];
    this.kept = [];
    this.bytes = 0;
    for (const record of records) this.remember(record);
  }

  /**
   * The reply for the request `scope` names: the kept one when this key was seen,
   * else `execute`'s, run against the store view of a keyed request and committed
   * with the key. `scope` must name the client's key, method, path and `Idempotency-Key`.
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
    const known = await this.find(this.store, scope);
    if (known) return { reply: toReply(known), replayed: true };
    const request = new KeyedRequest(
      this.store,
      scope,
      (tx, reply) => this.keep(tx, scope, reply),
      (reader) => this.find(reader, scope),
    );
    let reply: Reply | undefined;
    try {
      reply = await execute(request.view());
    } finally {
      try {
        await request.finish(reply);
      } catch (error) {
        // Nothing was written: the memory of what is kept follows the store again.
        await this.reload().catch(() => undefined);
        // eslint-disable-next-line no-unsafe-finally -- a failed finish is the answer, whatever the execution did
        throw error;
      }
    }
    if (request.replay) return { reply: toReply(request.replay), replayed: true };
    return { reply, replayed: false };
  }

  /** Puts the key with its reply in `tx`, removing the oldest keys past the retention. */
  private async keep(tx: Transaction, scope: string, reply: Reply): Promise<void> {
    const [id] = await tx.allocateIds(IDEMPOTENCY_COLLECTION, 1);
    const now = Date.now();
    const record = toRecord(id as number, scope, now, reply);
    // Forgotten before the commit, so that keys committing at the same time never evict the same ones.
    for (const old of this.forgetOldest(now, bytesOf(record))) tx.delete(IDEMPOTENCY_COLLECTION, old);
    this.remember(record);
    tx.put(IDEMPOTENCY_COLLECTION, record);
  }

  /** The newest kept record of `scope` still within the retention time. */
  private async find(reader: StoreReader, scope: string): Promise<KeptRecord | undefined> {
    const records = (await reader.find(IDEMPOTENCY_COLLECTION, { where: [{ field: SCOPE_FIELD, equals: scope }] })) as KeptRecord[];
    const record = records.at(-1);
    if (!record || record.at < Date.now() - this.retention.ttlMs) return undefined;
    return record;
  }

  /** Forgets the oldest keys so that one more of `adding` bytes fits (and expired ones); their ids, to delete. */
  private forgetOldest(now: number, adding: number): RecordId[] {
    const ids: RecordId[] = [];
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
