/**
 * The PostgreSQL store named in the pla config (`pla config set-store`), through the
 * built CLI with a temporary PLA_CONFIG_DIR against a real PostgreSQL: `pla server
 * migrate` and `pla server start` use it when neither `--store` nor `PLA_STORE_URL`
 * is given, and those outrank it (flag > PLA_STORE_URL > config > the data folder).
 * The URL's password is never printed: not by set-store, show, export (without
 * --with-keys), migrate, start, health, nor a refused URL.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../cli/support.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';

const DET = '/api/v1/asset-transaction-type-determinations';
/** The clusters of the tests trust local connections, so any password connects, and it must never show. */
const PASSWORD = 'Sw0rdfish-never-shown';

let postgres: TestPostgres;
let configDir: string;
let dataDir: string;
/** Everything the CLI printed in this file, to check the password never appears. */
const printed: string[] = [];
const servers: LocalServer[] = [];

/** The database's URL with a user name and password, as a team's store URL has. */
function withPassword(url: string): string {
  return url.replace('postgres://pla@', `postgres://pla:${PASSWORD}@`);
}

async function pla(args: string[], env: Record<string, string> = {}) {
  const result = await execa('node', [BIN, ...args], { env: { PLA_CONFIG_DIR: configDir, NO_COLOR: '1', ...env }, reject: false, stdin: 'ignore' });
  printed.push(result.stdout, result.stderr);
  return result;
}

async function migrationsOf(url: string): Promise<number> {
  const rows = await postgres.query<{ n: string }>(`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'pla_migrations'`, [], url);
  if (rows[0]?.n === '0') return 0;
  const [applied] = await postgres.query<{ n: string }>('SELECT count(*) AS n FROM pla_migrations', [], url);
  return Number(applied?.n);
}

beforeAll(async () => {
  postgres = await startTestPostgres();
  configDir = await mkdtemp(join(tmpdir(), 'pla-config-'));
  dataDir = await mkdtemp(join(tmpdir(), 'pla-data-'));
}, 120_000);

afterAll(async () => {
  for (const server of servers) printed.push(server.stderr());
  for (const server of servers) await server.stop().catch(() => {});
  await postgres?.cluster.close();
  await rm(configDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
  // Checked last, over every line any command of the file printed.
  expect(printed.join('\n')).not.toContain(PASSWORD);
});

describe('the store URL in the pla config', () => {
  let configured: string;

  it('set-store keeps it (password masked in what it says), show names it', async () => {
    configured = withPassword(await postgres.createDatabase());
    const set = await pla(['config', 'set-store', configured]);
    expect(set.exitCode).toBe(0);
    expect(set.stderr).toContain(`postgres://pla:••••@127.0.0.1:${postgres.cluster.port}/`);
    const stored = JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8')) as { server?: { store?: string } };
    expect(stored.server?.store).toBe(configured);

    const show = await pla(['config', 'show', '-o', 'json']);
    expect(show.exitCode).toBe(0);
    expect(show.stderr).toMatch(/server store: postgres:\/\/pla:••••@127\.0\.0\.1:\d+\/pla_test_\d+_\d+ \(config\)/);
    const fromEnv = await pla(['config', 'show', '-o', 'json'], { PLA_STORE_URL: 'postgres://ci@db.example:5432/other' });
    expect(fromEnv.stderr).toContain('server store: postgres://ci@db.example:5432/other (PLA_STORE_URL)');
  });

  it('export leaves the password out unless --with-keys; import takes it back', async () => {
    const plain = await pla(['config', 'export']);
    expect(JSON.parse(plain.stdout)).toMatchObject({ server: { store: configured.replace(`:${PASSWORD}@`, '@') } });
    expect(plain.stderr).toContain('left out 1 secret');
    const withKeys = await execa('node', [BIN, 'config', 'export', '--with-keys', '--yes'], { env: { PLA_CONFIG_DIR: configDir }, stdin: 'ignore' });
    expect(JSON.parse(withKeys.stdout)).toMatchObject({ server: { store: configured } });

    const otherDir = await mkdtemp(join(tmpdir(), 'pla-config-'));
    try {
      const imported = await execa('node', [BIN, 'config', 'import', '-'], { env: { PLA_CONFIG_DIR: otherDir }, input: withKeys.stdout });
      printed.push(imported.stdout, imported.stderr);
      const stored = JSON.parse(await readFile(join(otherDir, 'config.json'), 'utf8')) as { server?: { store?: string } };
      expect(stored.server?.store).toBe(configured);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('a URL that is not postgres:// is refused, masked, and the stored one kept', async () => {
    const refused = await pla(['config', 'set-store', `mysql://pla:${PASSWORD}@127.0.0.1/pla`]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('invalid store URL mysql://pla:••••@127.0.0.1/pla');
    const stored = JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8')) as { server?: { store?: string } };
    expect(stored.server?.store).toBe(configured);
  });

  it('pla server migrate uses it when neither --store nor PLA_STORE_URL is given', async () => {
    expect(await migrationsOf(configured)).toBe(0);
    const migrated = await pla(['server', 'migrate']);
    expect(migrated.exitCode).toBe(0);
    expect(migrated.stderr).toMatch(/applied migration\(s\) [\d, ]+ to postgres:\/\/pla:••••@\S+ \(from the pla config/);
    expect(await migrationsOf(configured)).toBeGreaterThan(0);
  });

  it('PLA_STORE_URL outranks the config, and --store outranks both', async () => {
    const fromEnv = withPassword(await postgres.createDatabase());
    const fromFlag = withPassword(await postgres.createDatabase());
    const byEnv = await pla(['server', 'migrate'], { PLA_STORE_URL: fromEnv });
    expect(byEnv.exitCode).toBe(0);
    expect(byEnv.stderr).toContain('(from PLA_STORE_URL)');
    expect(await migrationsOf(fromEnv)).toBeGreaterThan(0);

    const byFlag = await pla(['server', 'migrate', '--store', fromFlag], { PLA_STORE_URL: fromEnv });
    expect(byFlag.exitCode).toBe(0);
    expect(byFlag.stderr).toContain('(from --store)');
    expect(await migrationsOf(fromFlag)).toBeGreaterThan(0);
  });

  it('pla server start runs on it: a record written through the server is in that database', async () => {
    const server = await startLocalServer({ configDir, dataDir });
    servers.push(server);
    expect(server.stderr()).toMatch(/data in PostgreSQL at postgres:\/\/pla:••••@\S+ \(from the pla config/);
    const created = await server.http('POST', DET, { body: { code: 'from-config', name: 'kept in the configured database' } });
    expect(created.status).toBe(200);
    const rows = await postgres.query<{ n: string }>(`SELECT count(*) AS n FROM determinations WHERE record->>'code' = 'from-config'`, [], configured);
    expect(rows[0]?.n).toBe('1');
    const health = await server.pla(['server', 'health', '-o', 'json']);
    printed.push(health.stdout, health.stderr);
    expect(JSON.parse(health.stdout)).toMatchObject({ store: { backend: 'postgres', state: 'ok' } });
  });

  it('set-store --unset: the server keeps its data in the data folder again', async () => {
    for (const server of servers.splice(0)) {
      printed.push(server.stderr());
      await server.stop();
    }
    const unset = await pla(['config', 'set-store', '--unset']);
    expect(unset.exitCode).toBe(0);
    // Environment local holds the key of the database's server: a server on other data never takes it over unasked.
    const refused = await pla(['server', 'start', '--port', '0', '--data', dataDir, '--env-name', 'local']);
    expect(refused.exitCode).toBe(2);
    expect((await pla(['config', 'remove', 'local'])).exitCode).toBe(0);
    const server = await startLocalServer({ configDir, dataDir, seed: false });
    servers.push(server);
    expect(server.stderr()).toContain(`data in ${dataDir}`);
    expect((await server.http('GET', '/_admin/health')).body).toMatchObject({ store: { backend: 'json-file' } });
  });

  it('a password in the query (?password=) is masked and left out of exports; a URL that does not parse is never shown', async () => {
    for (const server of servers.splice(0)) {
      printed.push(server.stderr());
      await server.stop();
    }
    // A raw # in the password: the URL does not parse, so no part of it is shown.
    const unparsed = `postgres://pla:${PASSWORD}#x@127.0.0.1:5432/pla`;
    const refusedBySetStore = await pla(['config', 'set-store', unparsed]);
    expect(refusedBySetStore.exitCode).toBe(2);
    expect(refusedBySetStore.stderr).toContain('invalid store URL (not shown: it may hold a password)');
    const refusedByMigrate = await pla(['server', 'migrate', '--store', unparsed]);
    expect(refusedByMigrate.exitCode).not.toBe(0);
    expect(refusedByMigrate.stderr).toContain('(not shown: it may hold a password)');

    // node-postgres takes the password from the query too.
    const inQuery = `${await postgres.createDatabase()}?password=${PASSWORD}`;
    expect((await pla(['config', 'set-store', inQuery])).exitCode).toBe(0);
    const shown = await pla(['config', 'show']);
    expect(shown.stderr).toContain('?password=••••');
    const exported = await pla(['config', 'export']);
    const exportedStore = (JSON.parse(exported.stdout) as { server?: { store?: string } }).server?.store;
    expect(exportedStore).toMatch(/^postgres:\/\/pla@[^?]+$/);
    const migrated = await pla(['server', 'migrate']);
    expect(migrated.exitCode).toBe(0);
    expect(migrated.stderr).toContain('?password=••••');
    expect((await pla(['config', 'remove', 'local'])).exitCode).toBe(0);
    const server = await startLocalServer({ configDir, dataDir });
    servers.push(server);
    expect(server.stderr()).toContain('?password=••••');
    printed.push(JSON.stringify((await server.http('GET', '/_admin/health')).body));
  });
});
