/**
 * The PostgreSQL schema as versioned migrations, applied in order at start (and by
 * `pla server migrate`) under an advisory lock, so several processes starting at
 * once apply each migration exactly once. A migration is never edited once
 * released: a change of schema is a new migration at the end of the list.
 *
 * A table per collection: `id bigint` (primary key, values from the collection's
 * own sequence, so ids increase and are never reused), `doc json` (the record as
 * sent, its key order kept) and `record jsonb` generated from it, which the
 * queries and indexes read. Row counts are kept as deltas by statement triggers
 * (`pla_row_counts`), so the total of an unfiltered page costs a few rows, not a
 * count of the table. Image bytes live in `pla_blobs`.
 */
import type { PoolClient } from 'pg';
import type { CollectionName } from '../types.js';

/** The table of a collection (`apiKeys` → `api_keys`). */
export function tableOf(collection: CollectionName): string {
  return collection.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The sequence a collection's ids come from. */
export function sequenceOf(collection: CollectionName): string {
  return `${tableOf(collection)}_id_seq`;
}

/** The index expressions kept per collection, beyond the primary key: the fields the server sorts and filters on. */
const INDEXED: Record<CollectionName, { name: string; columns: string }[]> = {
  determinations: [
    { name: 'updated', columns: `pla_kind(record->'updatedAt'), (record->'updatedAt'), id` },
    { name: 'created', columns: `pla_kind(record->'createdAt'), (record->'createdAt'), id` },
    { name: 'status', columns: `(record->'status')` },
  ],
  settings: [{ name: 'updated', columns: `pla_kind(record->'updatedAt'), (record->'updatedAt'), id` }],
  tasks: [
    { name: 'created', columns: `pla_kind(record->'createdAt'), (record->'createdAt'), id` },
    { name: 'status', columns: `(record->'status')` },
  ],
  notifications: [{ name: 'user_newest', columns: `(record->'forUserId'), pla_kind(record->'createdDate'), (record->'createdDate'), id` }],
  emailNotifications: [],
  images: [{ name: 'sha256', columns: `(record->'sha256')` }],
  topics: [{ name: 'service', columns: `(record->'service')` }],
  apiKeys: [{ name: 'hash', columns: `(record->'hash')` }],
  idempotencyKeys: [{ name: 'scope', columns: `(record->'scope')` }],
};

function collectionSql(collection: CollectionName): string {
  const table = tableOf(collection);
  return [
    `CREATE SEQUENCE ${sequenceOf(collection)} AS bigint`,
    `CREATE TABLE ${table} (id bigint PRIMARY KEY, doc json NOT NULL, record jsonb GENERATED ALWAYS AS (doc::jsonb) STORED)`,
    ...INDEXED[collection].map((index) => `CREATE INDEX ${table}_${index.name} ON ${table} (${index.columns})`),
    `CREATE TRIGGER ${table}_count_in AFTER INSERT ON ${table} REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION pla_count_rows()`,
    `CREATE TRIGGER ${table}_count_out AFTER DELETE ON ${table} REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION pla_count_rows()`,
    `CREATE TRIGGER ${table}_count_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION pla_count_rows()`,
  ].join(';\n');
}

/**
 * Sort fields kept in real columns (migration 3), per collection: field → column.
 * `<column>_kind` holds the kind the value sorts by first, `<column>` the value;
 * both are STORED generated columns computed from `doc`, and the index on
 * `(<column>_kind, <column>, id)` holds everything a page's ids need, so a deep
 * page is picked by an index-only scan instead of reading a heap row for every
 * record it skips (an index on expressions of `record` cannot be scanned that way:
 * PostgreSQL wants the whole `record` column for it). Only these fields; others
 * sort by expression, as before.
 */
type SortColumns = Partial<Record<CollectionName, Readonly<Record<string, string>>>>;

/** What migration 3 added; fixed, as the migration is (more sort columns = a new migration, merged into SORT_COLUMNS). */
const SORT_COLUMNS_3: SortColumns = {
  determinations: { updatedAt: 'updated_at', createdAt: 'created_at' },
  settings: { updatedAt: 'updated_at' },
  tasks: { createdAt: 'created_at' },
};

/** Every sort column the schema has, for the queries (src/store/postgres/sql.ts). */
export const SORT_COLUMNS: SortColumns = SORT_COLUMNS_3;

/**
 * A jsonb value's text when it is a string, compared by code point (`COLLATE "C"`),
 * else NULL: ordered by it after the kind, strings sort as the file store sorts them,
 * whatever the database's collation (jsonb compares strings with that collation and
 * takes no COLLATE; a database made with en_US or ICU would order `a, arr, B`).
 * Values of other kinds all have NULL here and are ordered by the jsonb value next.
 * The queries and the indexes of migration 5 use this very text, so the planner
 * matches them.
 */
export function codeOrderText(value: string): string {
  return `(CASE WHEN jsonb_typeof(${value}) = 'string' THEN ${value} #>> '{}' END) COLLATE "C"`;
}

/**
 * Adds `<column>_text` (the value's `codeOrderText`, STORED) to the sort columns of
 * migration 3, and rebuilds their indexes as `(<column>_kind, <column>_text, <column>, id)`,
 * under the same names; the notifications' `user_newest` index likewise.
 */
function codeOrderSql(sortColumns: SortColumns): string {
  const newest = `(record->'createdDate')`;
  return [
    ...Object.entries(sortColumns).flatMap(([collection, columns]) => {
      const table = tableOf(collection as CollectionName);
      const fields = Object.entries(columns ?? {});
      const added = fields.map(
        ([field, column]) => `ADD COLUMN ${column}_text text COLLATE "C" GENERATED ALWAYS AS (${codeOrderText(`((doc::jsonb)->'${field}')`)}) STORED`,
      );
      return [
        `ALTER TABLE ${table} ${added.join(', ')}`,
        ...fields.flatMap(([, column]) => [
          `DROP INDEX ${table}_${column}`,
          `CREATE INDEX ${table}_${column} ON ${table} (${column}_kind, ${column}_text, ${column}, id)`,
        ]),
      ];
    }),
    `DROP INDEX notifications_user_newest`,
    `CREATE INDEX notifications_user_newest ON notifications ((record->'forUserId'), pla_kind(${newest}), (${codeOrderText(newest)}), ${newest}, id)`,
  ].join(';\n');
}

/**
 * Adds sort columns and their indexes, dropping the expression index each replaces
 * (migration 1's `<table>_updated` and `<table>_created`).
 */
function sortColumnsSql(sortColumns: SortColumns): string {
  const replaced: Record<string, string> = { updatedAt: 'updated', createdAt: 'created' };
  return Object.entries(sortColumns)
    .flatMap(([collection, columns]) => {
      const table = tableOf(collection as CollectionName);
      const fields = Object.entries(columns ?? {});
      const added = fields.flatMap(([field, column]) => [
        `ADD COLUMN ${column}_kind int GENERATED ALWAYS AS (pla_kind((doc::jsonb)->'${field}')) STORED`,
        `ADD COLUMN ${column} jsonb GENERATED ALWAYS AS ((doc::jsonb)->'${field}') STORED`,
      ]);
      return [
        // One ALTER: the table is rewritten once, however many columns it gains.
        `ALTER TABLE ${table} ${added.join(', ')}`,
        ...fields.flatMap(([field, column]) => [
          `DROP INDEX IF EXISTS ${table}_${replaced[field] ?? column}`,
          `CREATE INDEX ${table}_${column} ON ${table} (${column}_kind, ${column}, id)`,
        ]),
      ];
    })
    .join(';\n');
}

/** The collections of the first release (migration 1); later ones come with their own migration. */
const FIRST_COLLECTIONS: readonly CollectionName[] = [
  'determinations',
  'settings',
  'tasks',
  'notifications',
  'emailNotifications',
  'images',
  'topics',
  'apiKeys',
];

/** Migrations by version, applied in order; each runs in its own transaction. */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'collections, row counts, blobs',
    sql: [
      // The kind a value sorts by first, as the file store orders them: booleans,
      // numbers, strings, objects and arrays, then null and missing values.
      `CREATE FUNCTION pla_kind(value jsonb) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $$ SELECT CASE jsonb_typeof(value) WHEN 'boolean' THEN 0 WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 3 ELSE 4 END $$`,
      `CREATE TABLE pla_row_counts (collection text NOT NULL, delta bigint NOT NULL)`,
      `CREATE INDEX pla_row_counts_collection ON pla_row_counts (collection)`,
      `CREATE FUNCTION pla_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'TRUNCATE' THEN
            DELETE FROM pla_row_counts WHERE collection = TG_TABLE_NAME;
          ELSIF TG_OP = 'INSERT' THEN
            INSERT INTO pla_row_counts SELECT TG_TABLE_NAME, count(*) FROM changed HAVING count(*) > 0;
          ELSE
            INSERT INTO pla_row_counts SELECT TG_TABLE_NAME, -count(*) FROM changed HAVING count(*) > 0;
          END IF;
          RETURN NULL;
        END $$`,
      ...FIRST_COLLECTIONS.map(collectionSql),
      `CREATE TABLE pla_blobs (sha256 text PRIMARY KEY, bytes bytea NOT NULL)`,
    ].join(';\n'),
  },
  {
    version: 2,
    name: 'idempotency keys',
    sql: collectionSql('idempotencyKeys'),
  },
  {
    version: 3,
    name: 'sort columns for index-only page scans',
    sql: sortColumnsSql(SORT_COLUMNS_3),
  },
  {
    version: 4,
    name: 'image bytes removed with their last record',
    sql: [
      // Statement triggers on images: the statement that deletes (or replaces) the last
      // record of a hash removes its bytes, in the same transaction, so no kill can come between.
      `CREATE FUNCTION pla_release_blobs() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          DELETE FROM pla_blobs b
           WHERE b.sha256 IN (SELECT gone.record->>'sha256' FROM gone)
             AND NOT EXISTS (SELECT 1 FROM images i WHERE i.record->'sha256' = to_jsonb(b.sha256));
          RETURN NULL;
        END $$`,
      // A reset empties images with TRUNCATE: every byte goes with it (in the reset's transaction).
      `CREATE FUNCTION pla_release_all_blobs() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          DELETE FROM pla_blobs b WHERE NOT EXISTS (SELECT 1 FROM images i WHERE i.record->'sha256' = to_jsonb(b.sha256));
          RETURN NULL;
        END $$`,
      `CREATE TRIGGER images_release_deleted AFTER DELETE ON images REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION pla_release_blobs()`,
      `CREATE TRIGGER images_release_replaced AFTER UPDATE ON images REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION pla_release_blobs()`,
      `CREATE TRIGGER images_release_truncated AFTER TRUNCATE ON images FOR EACH STATEMENT EXECUTE FUNCTION pla_release_all_blobs()`,
      // Bytes an earlier release left behind (a kill between a delete and its release):
      // those of no record, unless an upload of that hash holds its lock (a server of
      // that release still placing them).
      `DELETE FROM pla_blobs b
        WHERE NOT EXISTS (SELECT 1 FROM images i WHERE i.record->'sha256' = to_jsonb(b.sha256))
          AND pg_try_advisory_xact_lock(hashtext('image:' || b.sha256))`,
    ].join(';\n'),
  },
  {
    version: 5,
    name: 'strings sorted by code point whatever the database collation',
    sql: codeOrderSql(SORT_COLUMNS_3),
  },
  {
    version: 6,
    name: 'token buckets shared by every server on the database (--rate-limit)',
    sql: 'CREATE TABLE pla_rate_buckets (bucket text PRIMARY KEY, tokens float8 NOT NULL, taken boolean NOT NULL, at timestamptz NOT NULL)',
  },
];

/** The advisory lock key migrations run under (any fixed number the application owns). */
const MIGRATION_LOCK = 7_461_120_001;

/**
 * Applies the migrations this database lacks, one transaction each, under an
 * advisory lock; returns the versions applied. Refuses a database migrated by a
 * newer pla (a version it does not know).
 */
export async function migrate(client: PoolClient): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS pla_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM pla_migrations ORDER BY version');
    const applied = new Set(rows.map((row) => row.version));
    const known = new Set(MIGRATIONS.map((m) => m.version));
    const unknown = [...applied].filter((version) => !known.has(version));
    if (unknown.length)
      throw new Error(`the database has schema version ${Math.max(...unknown)}, newer than this pla knows (${Math.max(...known)}); upgrade pla`);
    const done: number[] = [];
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO pla_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      done.push(migration.version);
    }
    return done;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}
