/**
 * A real PostgreSQL for a test file, from the binaries `npm ci` installs
 * (scripts/local-postgres.mjs): one cluster per file on a temporary folder and a
 * free port, and a new database per server or suite, so suites never see each
 * other's data. `usePostgresStore()` makes every `startLocalServer` of the file run
 * on its own new database (`--store`).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { startLocalPostgres, type LocalPostgres } from '../../scripts/local-postgres.mjs';
import { MIGRATIONS } from '../../src/store/postgres/schema.js';
import { setDefaultStore, startLocalServer } from './local-server.js';

export interface TestPostgres {
  cluster: LocalPostgres;
  /** A new, empty database (`options`: what follows `CREATE DATABASE name`, e.g. a locale); returns its URL. */
  createDatabase(options?: string): Promise<string>;
  /** A new database as an older pla left it: migrations up to `version` applied and recorded; returns its URL. */
  createDatabaseAt(version: number): Promise<string>;
  /** Runs one statement on a database (the cluster's `postgres` one by default). */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[], url?: string): Promise<T[]>;
}

let databases = 0;

/** Starts a cluster (fsync off: tests crash servers, never the machine). Close it with `cluster.close()`. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const cluster = await startLocalPostgres({ durable: false });
  const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = [], url = cluster.url()) => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const createDatabase = async (options = '') => {
    const name = `pla_test_${process.pid}_${++databases}`;
    await query(`CREATE DATABASE ${name} ${options}`);
    return cluster.url(name);
  };
  return {
    cluster,
    query,
    createDatabase,
    async createDatabaseAt(version) {
      const url = await createDatabase();
      const applied = MIGRATIONS.filter((migration) => migration.version <= version);
      for (const migration of applied) await query(migration.sql, [], url);
      await query('CREATE TABLE pla_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())', [], url);
      await query(
        'INSERT INTO pla_migrations (version, name) SELECT * FROM unnest($1::int[], $2::text[])',
        [applied.map((m) => m.version), applied.map((m) => m.name)],
        url,
      );
      return url;
    },
  };
}

/**
 * For the file: a PostgreSQL started before its tests and stopped after them, and
 * every local server of the file on a new database of it. Returns the running
 * cluster (valid inside tests and hooks).
 */
export function usePostgresStore(): { current(): TestPostgres } {
  let postgres: TestPostgres | undefined;
  beforeAll(async () => {
    postgres = await startTestPostgres();
    const running = postgres;
    setDefaultStore(() => running.createDatabase());
  }, 120_000);
  afterAll(async () => {
    setDefaultStore(undefined);
    await postgres?.cluster.close();
  });
  return {
    current() {
      if (!postgres) throw new Error('PostgreSQL is not started yet (use it inside tests or hooks)');
      return postgres;
    },
  };
}

/**
 * Runs the tests of another file (`load`, its dynamic import) on the PostgreSQL
 * store, then checks that its servers really ran on PostgreSQL. Returns the
 * cluster, for tests of the file's own.
 */
export async function runOnPostgres(load: () => Promise<unknown>): Promise<{ current(): TestPostgres }> {
  const postgres = usePostgresStore();
  await load();
  it('ran those servers on PostgreSQL', async () => {
    const server = await startLocalServer();
    try {
      expect((await server.http('GET', '/_admin/health')).body).toMatchObject({ store: { backend: 'postgres', state: 'ok' } });
    } finally {
      await server.stop();
    }
  });
  return postgres;
}
