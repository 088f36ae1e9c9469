/**
 * The PostgreSQL store: any number of server processes, on any number of
 * machines, on one database. Each transaction is one database transaction on one
 * pooled connection; the records it reads are locked (`FOR UPDATE`) until it
 * commits, so a state change decided from them holds (two cancels of one task:
 * the second waits, then sees CANCELLED). Deadlocks and serialization failures are
 * retried; an unreachable database is `StoreUnavailableError` (the server answers
 * 503), and the pool reconnects by itself once the database is back.
 */
import pg from 'pg';
import type { Pool, PoolClient, PoolConfig } from 'pg';
import { compareIds, parseRecordId } from '../../contract/ids.js';
import { jsonText } from '../../json/json-text.js';
import { parseJson } from '../../json/json-parse.js';
import { StoreUnavailableError } from '../errors.js';
import type {
  BlobStore,
  SharedBuckets,
  CollectionName,
  Condition,
  PageQuery,
  PageResult,
  Query,
  RecordId,
  Store,
  StoredRecord,
  StoreHealth,
  StoreReader,
  Transaction,
  TransactionBlobs,
} from '../types.js';
import { COLLECTIONS } from '../types.js';
import { maskUrl } from '../../contract/secrets.js';
import { isUnavailable } from './connection.js';
import { migrate, sequenceOf, tableOf } from './schema.js';
import { Params, pageSql, selectSql, whereSql } from './sql.js';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  /** Connections at most (default 10, as `pla server start --store-pool-size`). */
  maxConnections?: number;
  /** How long to wait for a new connection, ms (default 5,000). */
  connectTimeoutMs?: number;
  /** Longest one statement may run, ms (default 30,000). */
  statementTimeoutMs?: number;
  /** Apply pending migrations at open (default true; `pla server migrate` does it alone). */
  migrate?: boolean;
  warn?: (message: string) => void;
}

/** Runs of a transaction that lost a deadlock or serialization race, at most. */
const MAX_ATTEMPTS = 5;
/** SQLSTATEs worth running the transaction again for: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);
/** Delta rows per collection beyond which they are summed into one. */
const COMPACT_COUNTS_AFTER = 1000;

/** Tokens in bucket `b` now: what it held, refilled at $3 a second since, at most $2 ($1 the bucket's name). */
const REFILLED = 'LEAST($2::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - b.at)) * $3::float8)';

/**
 * Takes a token from a shared bucket in one statement: the row lock of ON CONFLICT
 * makes concurrent takes from every server on the database queue, so together they
 * never take more than the bucket holds. A new bucket starts full, less this token.
 */
const TAKE_TOKEN_SQL = `INSERT INTO pla_rate_buckets AS b (bucket, tokens, taken, at) VALUES ($1, $2::float8 - 1, true, clock_timestamp())
  ON CONFLICT (bucket) DO UPDATE SET
    tokens = ${REFILLED} - CASE WHEN ${REFILLED} >= 1 THEN 1 ELSE 0 END,
    taken = ${REFILLED} >= 1,
    at = clock_timestamp()
  RETURNING tokens, taken`;

/** A statement and its parameters. */
type Statement = { text: string; values: unknown[] };

function fail(error: unknown, url: string): never {
  if (isUnavailable(error)) {
    throw new StoreUnavailableError(`PostgreSQL at ${maskUrl(url)} cannot be reached: ${(error as Error).message}`, { cause: error });
  }
  throw error;
}

/** OIDs of PostgreSQL's `json` and `jsonb`. */
const JSON_TYPES = new Set([114, 3802]);

/** node-postgres's type parsers, with `json` and `jsonb` read by pla's exact JSON reader instead of `JSON.parse`. */
const exactJsonTypes = ((oid: number, format?: 'text' | 'binary') =>
  JSON_TYPES.has(oid) && format !== 'binary' ? parseJson : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser;

/** Opens the pool, checks the database answers, and applies pending migrations (unless told not to). */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store & { migrate(): Promise<number[]> }> {
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    // A dead database must not leave requests hanging on a half-open socket.
    keepAlive: true,
    application_name: 'pla-server',
    // Records come back with every number exact (json/json-text.ts), as the file store keeps them.
    types: { getTypeParser: exactJsonTypes },
  };
  const pool = new pg.Pool(config);
  // An idle connection the database dropped (restart, network): the pool replaces it; nothing to do here.
  pool.on('error', () => {});
  // A connection lost while checked out (in a transaction when the database stops)
  // emits 'error' on its client, which the pool listens to only while the client is
  // idle: without a listener of its own that event ended the process. The statement
  // in flight fails with it (503), and the pool drops the client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  const store = new PostgresStore(pool, options.url, options.warn ?? ((message) => process.stderr.write(`${message}\n`)));
  try {
    if (options.migrate !== false) await store.migrate();
    else
      await store.health().then((health) => {
        if (health.state !== 'ok') throw new StoreUnavailableError(health.problem ?? 'unavailable');
      });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return store;
}

/** Reads over one connection or the pool; `lock` makes them `FOR UPDATE`. */
class SqlReader implements StoreReader {
  constructor(
    protected readonly run: (query: Statement) => Promise<pg.QueryResult>,
    private readonly locking: boolean,
  ) {}

  protected async docs(query: Statement): Promise<StoredRecord[]> {
    return (await this.run(query)).rows.map((row: { doc: StoredRecord }) => row.doc);
  }

  async get(collection: CollectionName, id: RecordId): Promise<StoredRecord | undefined> {
    const [record] = await this.docs({ text: `SELECT doc FROM ${tableOf(collection)} WHERE id = $1${this.locking ? ' FOR UPDATE' : ''}`, values: [id] });
    return record;
  }

  async getMany(collection: CollectionName, ids: readonly RecordId[]): Promise<StoredRecord[]> {
    if (ids.length === 0) return [];
    // In id order, so that transactions locking overlapping sets take the locks in one order.
    return this.docs({
      text: `SELECT doc FROM ${tableOf(collection)} WHERE id = ANY($1::bigint[]) ORDER BY id${this.locking ? ' FOR UPDATE' : ''}`,
      values: [[...new Set(ids)]],
    });
  }

  async page(collection: CollectionName, query: PageQuery): Promise<PageResult> {
    const params = new Params();
    const text = this.locking
      ? `${selectSql(collection, query, params, false)} LIMIT ${params.add(query.limit)} OFFSET ${params.add(query.offset)} FOR UPDATE`
      : pageSql(collection, query, params);
    const [items, total] = await Promise.all([this.docs({ text, values: params.values }), this.count(collection, query.where)]);
    return { items, total };
  }

  async find(collection: CollectionName, query: Query = {}): Promise<StoredRecord[]> {
    const params = new Params();
    return this.docs({ text: selectSql(collection, query, params, this.locking), values: params.values });
  }

  async count(collection: CollectionName, where: readonly Condition[] = []): Promise<number> {
    if (where.length === 0) {
      const { rows } = await this.run({
        text: 'SELECT COALESCE(sum(delta), 0)::float8 AS n, count(*)::int AS parts FROM pla_row_counts WHERE collection = $1',
        values: [tableOf(collection)],
      });
      const row = rows[0] as { n: number; parts: number };
      if (row.parts > COMPACT_COUNTS_AFTER && !this.locking) void this.compactCounts(collection);
      return row.n;
    }
    const params = new Params();
    const { rows } = await this.run({
      text: `SELECT count(*)::float8 AS n FROM ${tableOf(collection)} ${whereSql(collection, where, params)}`,
      values: params.values,
    });
    return (rows[0] as { n: number }).n;
  }

  /** Sums a collection's count deltas into one row (one process at a time; a failure leaves them as they were). */
  protected async compactCounts(collection: CollectionName): Promise<void> {
    await this.run({
      text: `WITH gate AS (SELECT pg_try_advisory_xact_lock(hashtext('pla:counts:' || $1)) AS ok),
                  gone AS (DELETE FROM pla_row_counts WHERE collection = $1 AND (SELECT ok FROM gate) RETURNING delta)
             INSERT INTO pla_row_counts SELECT $1, sum(delta) FROM gone HAVING count(*) > 0`,
      values: [tableOf(collection)],
    }).catch(() => {});
  }
}

/** One transaction on one connection: reads lock, changes are staged and written at the end. */
class SqlTransaction extends SqlReader implements Transaction {
  /** Staged records with their JSON text (serialized once, when staged). */
  private readonly puts = new Map<CollectionName, Map<RecordId, { record: StoredRecord; text: string }>>();
  private readonly deletes = new Map<CollectionName, Set<RecordId>>();
  /** `clear()` was called: every table is emptied before the staged changes are written. */
  private cleared = false;

  constructor(client: PoolClient) {
    // One connection runs one statement at a time: statements the work starts together are queued.
    let queue: Promise<unknown> = Promise.resolve();
    const run = (query: Statement) => {
      const next = queue.then(() => client.query(query));
      queue = next.catch(() => undefined);
      return next;
    };
    super(run, true);
    this.sql = (text, values = []) => run({ text, values });
  }

  private readonly sql: (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

  override async get(collection: CollectionName, id: RecordId): Promise<StoredRecord | undefined> {
    const staged = this.staged(collection, id);
    if (staged !== undefined) return staged ?? undefined;
    return this.cleared ? undefined : super.get(collection, id);
  }

  override async getMany(collection: CollectionName, ids: readonly RecordId[]): Promise<StoredRecord[]> {
    const unique = [...new Set(ids)].sort(compareIds);
    const fromDb = this.cleared
      ? []
      : await super.getMany(
          collection,
          unique.filter((id) => this.staged(collection, id) === undefined),
        );
    const byId = new Map(fromDb.map((record) => [record.id, record]));
    return unique.flatMap((id) => {
      const staged = this.staged(collection, id);
      const record = staged === undefined ? byId.get(id) : (staged ?? undefined);
      return record ? [record] : [];
    });
  }

  /**
   * Writes what is staged so far, so that queries (which run in the database) see it:
   * deletes, then puts as one multi-row upsert per collection (a put of an id staged
   * for deletion has already taken it off the deletes).
   */
  private async flush(): Promise<void> {
    if (this.cleared) {
      await this.sql(`TRUNCATE ${COLLECTIONS.map(tableOf).join(', ')}`);
      this.cleared = false;
    }
    for (const [collection, ids] of this.deletes) {
      if (ids.size) await this.sql(`DELETE FROM ${tableOf(collection)} WHERE id = ANY($1::bigint[])`, [[...ids]]);
    }
    this.deletes.clear();
    for (const [collection, records] of this.puts) {
      if (records.size === 0) continue;
      const list = [...records.values()];
      await this.sql(
        `INSERT INTO ${tableOf(collection)} (id, doc) SELECT * FROM unnest($1::bigint[], $2::json[])
         ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
        [list.map((staged) => staged.record.id), list.map((staged) => staged.text)],
      );
    }
    this.puts.clear();
  }

  override async page(collection: CollectionName, query: PageQuery): Promise<PageResult> {
    await this.flush();
    return super.page(collection, query);
  }

  override async find(collection: CollectionName, query: Query = {}): Promise<StoredRecord[]> {
    await this.flush();
    return super.find(collection, query);
  }

  override async count(collection: CollectionName, where: readonly Condition[] = []): Promise<number> {
    await this.flush();
    return super.count(collection, where);
  }

  async allocateIds(collection: CollectionName, count: number): Promise<RecordId[]> {
    if (count <= 0) return [];
    const { rows } = await this.sql(`SELECT nextval('${sequenceOf(collection)}') AS id FROM generate_series(1, $1::int) ORDER BY 1`, [count]);
    // node-postgres reads a bigint as its text: past 2^53 `Number` would give two new records one id.
    return rows.map((row: { id: string }) => parseRecordId(row.id) as RecordId);
  }

  put(collection: CollectionName, record: StoredRecord): void {
    this.deletes.get(collection)?.delete(record.id);
    let records = this.puts.get(collection);
    if (!records) this.puts.set(collection, (records = new Map()));
    // Serialized now, as the file store does: a record that cannot be (a cycle) fails the work, not the commit.
    records.set(record.id, { record, text: jsonText(record) });
  }

  delete(collection: CollectionName, id: RecordId): void {
    this.puts.get(collection)?.delete(id);
    let ids = this.deletes.get(collection);
    if (!ids) this.deletes.set(collection, (ids = new Set()));
    ids.add(id);
  }

  clear(): void {
    this.cleared = true;
    this.puts.clear();
    this.deletes.clear();
  }

  async tryLock(name: string): Promise<boolean> {
    const { rows } = await this.sql('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [name]);
    return (rows[0] as { ok: boolean } | undefined)?.ok === true;
  }

  async lock(name: string): Promise<void> {
    await this.sql('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
  }

  /**
   * Bytes written at once, in this transaction: they commit with the image record that refers to them, or not at all.
   * `images` is locked first (ROW EXCLUSIVE, what the record's insert takes anyway, only earlier): bytes already
   * stored are not written, so nothing else would stop a reset's TRUNCATE (ACCESS EXCLUSIVE) running between here
   * and the record's insert at commit, its trigger removing the bytes the record is about to refer to. Locked, the
   * reset waits for this transaction, and its trigger then sees the record and removes the bytes with it.
   */
  readonly blobs: TransactionBlobs = {
    put: async (sha256, bytes) => {
      await this.sql(`LOCK TABLE ${tableOf('images')} IN ROW EXCLUSIVE MODE`);
      await this.sql('INSERT INTO pla_blobs (sha256, bytes) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING', [sha256, bytes]);
    },
  };

  /** Writes everything staged (at the end of the work). */
  finish(): Promise<void> {
    return this.flush();
  }

  /** A staged record, `null` for a staged delete, undefined when the id is untouched. */
  private staged(collection: CollectionName, id: RecordId): StoredRecord | null | undefined {
    const put = this.puts.get(collection)?.get(id);
    if (put) return put.record;
    return this.deletes.get(collection)?.has(id) ? null : undefined;
  }
}

class PostgresStore extends SqlReader implements Store {
  readonly backend = 'postgres' as const;
  readonly blobs: BlobStore;
  readonly buckets: SharedBuckets;
  private lastProblem: string | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly url: string,
    private readonly warn: (message: string) => void,
  ) {
    super((query) => pool.query(query).catch((error: unknown) => fail(error, url)), false);
    this.buckets = {
      take: async (bucket, capacity, perSecond) => {
        const { rows } = await this.run({ text: TAKE_TOKEN_SQL, values: [bucket, capacity, perSecond] });
        const { tokens, taken } = rows[0] as { tokens: number; taken: boolean };
        return taken ? 0 : (1 - tokens) / perSecond;
      },
    };
    // Removing bytes is the database's: triggers on the images table (migration 4) do it in the transaction that drops their last record.
    this.blobs = {
      get: async (sha256) => {
        const { rows } = await this.run({ text: 'SELECT bytes FROM pla_blobs WHERE sha256 = $1', values: [sha256] });
        return (rows[0] as { bytes: Buffer } | undefined)?.bytes;
      },
    };
  }

  async migrate(): Promise<number[]> {
    const client = await this.pool.connect().catch((error: unknown) => fail(error, this.url));
    try {
      return await migrate(client);
    } finally {
      client.release();
    }
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect().catch((error: unknown) => fail(error, this.url));
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const tx = new SqlTransaction(client);
        const result = await work(tx);
        await tx.finish();
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
        const code = (error as { code?: string }).code;
        if (code !== undefined && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) continue;
        fail(error, this.url);
      } finally {
        // A connection whose rollback failed is dropped, not reused.
        client.release(broken instanceof Error ? broken : undefined);
      }
    }
  }

  async health(): Promise<StoreHealth> {
    try {
      await this.pool.query('SELECT 1');
      if (this.lastProblem !== undefined) this.warn(`store: PostgreSQL at ${maskUrl(this.url)} answers again`);
      this.lastProblem = undefined;
      return { backend: this.backend, state: 'ok', pool: this.poolState() };
    } catch (error) {
      const problem = `PostgreSQL at ${maskUrl(this.url)}: ${error instanceof Error ? error.message : String(error)}`;
      this.lastProblem = problem;
      return { backend: this.backend, state: 'unavailable', problem, pool: this.poolState() };
    }
  }

  private poolState(): NonNullable<StoreHealth['pool']> {
    return { max: this.pool.options.max, open: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
