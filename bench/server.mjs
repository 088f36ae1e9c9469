// `npm run bench:server`: pla's local server against json-server 1.0.0-beta.3 and a
// bare node:http server (the ceiling: the same bytes for a page and a get), all holding
// the same 100,000 determinations, durable creates against an append+fdatasync loop on
// the same disk (the disk's ceiling), plus pla's start-up with 1,000,000. Load comes from
// autocannon in its own process. Prints a table of figures and PASS/MISS per target.
// Needs `npm run build` first. BENCH_COMPARE=DIR (a checkout of another build, built)
// runs that build's server on a copy of the same folder in the same rounds: the before
// and after of a change, side by side. The PostgreSQL store's figures against bare
// node:http + pg are bench/store.mjs's (`npm run bench:store`).
import { rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, bundleStore, freePort, killAll, loadAverage, runNode, startNode } from './server-processes.mjs';
import { determination } from './server-records.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const RECORDS = 100_000;
const BIG = 1_000_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const DETERMINATIONS = '/api/v1/asset-transaction-type-determinations';
const work = await mkdtemp(join(tmpdir(), 'pla-bench-server-'));
const log = (line) => process.stderr.write(`${line}\n`);

const COMPARE = process.env.BENCH_COMPARE;

async function load(options) {
  const out = await runNode([here('./server-load.mjs')], {
    BENCH_LOAD: JSON.stringify({ duration: SECONDS, connections: 10, ...options }),
  });
  const result = JSON.parse(out);
  if (result.ok === 0) throw new Error(`no successful request to ${options.url} (${out.trim()})`);
  return result;
}

/** The store alone, in this process, on the 100k folder: what a page and a get cost before any HTTP. */
async function measureStoreOnly() {
  const { openFileTables: openStore } = await import(join(work, 'store.mjs'));
  const store = await openStore({ dir: join(work, 'pla-100k') });
  const perCallUs = (calls, fn) => {
    fn();
    const started = performance.now();
    for (let i = 0; i < calls; i++) fn();
    return ((performance.now() - started) / calls) * 1000;
  };
  const figures = {
    pageUs: perCallUs(20_000, () => store.page('determinations', { offset: 50_000, limit: 20 })),
    sortedPageUs: perCallUs(20_000, () => store.page('determinations', { offset: 50_000, limit: 20, sort: [{ field: 'amount', direction: 'desc' }] })),
    getUs: perCallUs(100_000, () => store.get('determinations', 50_000)),
  };
  await store.close();
  return figures;
}

async function prepare() {
  log('preparing data folders (store API) and db.json …');
  const bundle = join(work, 'store.mjs');
  await bundleStore(root, bundle);
  const prepareScript = here('./server-prepare.mjs');
  await Promise.all([
    runNode([prepareScript, 'store', bundle, join(work, 'pla-100k'), String(RECORDS)]),
    runNode([prepareScript, 'json-server', join(work, 'db.json'), String(RECORDS)]),
  ]);
  await runNode([prepareScript, 'store', bundle, join(work, 'pla-1m'), String(BIG)]);
}

/** Starts `pla server start` (of `checkout`) on a data folder; returns it with its URL and the admin key it created. */
async function startPla(dataDir, checkout = root) {
  let key;
  const server = await startNode([join(checkout, 'bin/pla.js'), 'server', 'start', '--port', '0', '--data', dataDir, '--no-seed', '--no-request-log'], {
    env: { PLA_CONFIG_DIR: join(work, checkout === root ? 'config' : 'config-compare'), NO_COLOR: '1' },
    ready: /listening on (http:\/\/\S+)/,
    watch: (line) => {
      key ??= /New admin key: (\S+)/.exec(line)?.[1];
    },
  });
  return { server, url: server.match[1], headers: { 'x-api-key': key } };
}

async function measureHttp() {
  // The other build gets a copy made before either server starts (and holds its folder's lock).
  if (COMPARE) await cp(join(work, 'pla-100k'), join(work, 'pla-100k-compare'), { recursive: true });
  const pla = await startPla(join(work, 'pla-100k'));
  const before = COMPARE ? await startPla(join(work, 'pla-100k-compare'), COMPARE) : undefined;
  const jsonPort = await freePort();
  // json-server also serves ./public, and fails without one.
  await mkdir(join(work, 'public'), { recursive: true });
  const jsonServer = await startNode(
    [join(root, 'node_modules/json-server/lib/bin.js'), join(work, 'db.json'), '--port', String(jsonPort), '--host', '127.0.0.1'],
    { cwd: work, env: { NODE_ENV: 'production' }, ready: /started on PORT/i },
  );
  const json = `http://127.0.0.1:${jsonPort}`;
  // The ceiling serves the very bytes pla answers a page with.
  const pagePath = `${DETERMINATIONS}?page=2500&size=20`;
  const getPath = `${DETERMINATIONS}/50000`;
  const bodies = {};
  for (const path of [pagePath, getPath]) bodies[path] = await (await fetch(pla.url + path, { headers: pla.headers })).text();
  await writeFile(join(work, 'bodies.json'), JSON.stringify(bodies));
  const bare = await startNode([here('./server-bare.mjs'), join(work, 'bodies.json')], { ready: /listening on (http:\/\/\S+)/ });
  const compare = (path, options = {}) => (before ? { before: { server: before.server, url: before.url + path, headers: before.headers, ...options } } : {});

  const figures = { loadBefore: await loadAverage() };
  // Three rounds of each target in turn, half of SECONDS each, with each server's CPU time per request.
  const rounds = (targets) =>
    alternate(
      Object.fromEntries(
        Object.entries(targets).map(([name, { server, ...options }]) => [
          name,
          { run: () => load({ duration: Math.max(1, SECONDS / 2), ...options }), pid: server.child.pid },
        ]),
      ),
    );
  log(`GET a page of 20 (offset 50,000), 3 alternating rounds of ${SECONDS / 2} s each …`);
  const page = await rounds({
    pla: { server: pla.server, url: pla.url + pagePath, headers: pla.headers },
    json: { server: jsonServer, url: `${json}/determinations?_page=2501&_per_page=20` },
    bare: { server: bare, url: bare.match[1] + pagePath },
    ...compare(pagePath),
  });
  [figures.pagePla, figures.pageJson, figures.pageBare, figures.pageBefore] = [page.pla, page.json, page.bare, page.before];
  log('GET by id …');
  const get = await rounds({
    pla: { server: pla.server, url: pla.url + getPath, headers: pla.headers },
    json: { server: jsonServer, url: `${json}/determinations/50000` },
    bare: { server: bare, url: bare.match[1] + getPath },
    ...compare(getPath),
  });
  [figures.getPla, figures.getJson, figures.getBare, figures.getBefore] = [get.pla, get.json, get.bare, get.before];
  log('POST create …');
  const body = JSON.stringify({ name: 'new', transactionType: 'LEASE', companyCode: 'C001', amount: 12.5 });
  figures.postPla = await load({ url: pla.url + DETERMINATIONS, method: 'POST', body, headers: pla.headers, connections: 32 });
  if (before) figures.postBefore = await load({ url: before.url + DETERMINATIONS, method: 'POST', body, headers: before.headers, connections: 32 });
  // The disk's ceiling for one writer: append a create's line and fdatasync it, one after the other, in the same folder.
  figures.postDisk = JSON.parse(await runNode([here('./disk-bare.mjs'), work, String(SECONDS)]));
  // json-server rewrites its whole db.json per write, one after the other: one connection is its
  // best case (more only queue), and it needs a longer run to finish a meaningful number.
  figures.postJson = await load({ url: `${json}/determinations`, method: 'POST', body, connections: 1, duration: Math.max(SECONDS, 10) });
  log('bulk upsert of 1,000 records …');
  figures.bulkMs = await bulkUpsertMedian(pla);
  figures.loadAfter = await loadAverage();
  await Promise.all([pla.server.stop(), jsonServer.stop(), bare.stop(), before?.server.stop()]);
  return figures;
}

async function bulkUpsertMedian(pla) {
  const times = [];
  for (let round = 0; round < 25; round++) {
    const records = [];
    for (let i = 0; i < 1000; i++) {
      const id = 1 + ((round * 1000 + i) % RECORDS);
      records.push({ ...determination(id), amount: round });
    }
    const body = JSON.stringify(records);
    const started = performance.now();
    const response = await fetch(`${pla.url}${DETERMINATIONS}/createOrUpdate/bulk`, {
      method: 'PUT',
      headers: { ...pla.headers, 'content-type': 'application/json' },
      body,
    });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`bulk upsert answered ${response.status}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function measureStartup() {
  log('start-up with 1,000,000 records …');
  const pla = await startPla(join(work, 'pla-1m'));
  const response = await fetch(`${pla.url}${DETERMINATIONS}?page=49999&size=20`, { headers: pla.headers });
  const page = await response.json();
  const rssMb = await pla.server.rssMb();
  // The folder is thrown away: no need to wait for a clean close's compaction.
  await pla.server.stop('SIGKILL');
  if (!response.ok) throw new Error(`page read after start-up answered ${response.status}`);
  return { startupMs: pla.server.readyMs, rssMb, total: page?.page?.totalElements ?? page?.data?.page?.totalElements };
}

function report(f, startup, storeOnly) {
  const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const rows = [
    [
      'GET page of 20: pla / json-server',
      f.pagePla.perSecond / f.pageJson.perSecond,
      '≥ 20×',
      (r) => r >= 20,
      `${fmt(f.pagePla.perSecond)} vs ${fmt(f.pageJson.perSecond)} req/s`,
    ],
    [
      'GET page of 20: pla / bare node:http',
      f.pagePla.perSecond / f.pageBare.perSecond,
      '≥ 60%',
      (r) => r >= 0.6,
      `${fmt(f.pagePla.perSecond)} vs ${fmt(f.pageBare.perSecond)} req/s`,
    ],
    [
      'GET by id: pla / bare node:http',
      f.getPla.perSecond / f.getBare.perSecond,
      '≥ 60%',
      (r) => r >= 0.6,
      `${fmt(f.getPla.perSecond)} vs ${fmt(f.getBare.perSecond)} req/s`,
    ],
    [
      'POST create (durable): pla / append+fdatasync loop',
      f.postPla.perSecond / f.postDisk.perSecond,
      '≥ 30%',
      (r) => r >= 0.3,
      `${fmt(f.postPla.perSecond)} vs ${fmt(f.postDisk.perSecond)} /s`,
    ],
    [
      'POST create (durable): pla / json-server',
      f.postPla.perSecond / f.postJson.perSecond,
      '≥ 300×',
      (r) => r >= 300,
      `${fmt(f.postPla.perSecond)} vs ${fmt(f.postJson.perSecond, 1)} req/s`,
    ],
    [
      'GET by id: pla / json-server',
      f.getPla.perSecond / f.getJson.perSecond,
      '≥ 2×',
      (r) => r >= 2,
      `${fmt(f.getPla.perSecond)} vs ${fmt(f.getJson.perSecond)} req/s`,
    ],
    ['start-up, 1,000,000 records', startup.startupMs / 1000, '< 5 s', (s) => s < 5, `${fmt(startup.startupMs)} ms`],
    ['server RSS, 1,000,000 records', startup.rssMb, '< 1 GB', (mb) => mb < 1024, `${fmt(startup.rssMb)} MB`],
    ['bulk upsert of 1,000 (median)', f.bulkMs, '< 50 ms', (ms) => ms < 50, `${fmt(f.bulkMs, 1)} ms`],
  ];
  const lines = [['measure', 'value', 'target', 'result', 'figures']];
  for (const [name, value, target, pass, figures] of rows) {
    const shown = target.endsWith('%')
      ? `${fmt(value * 100)}%`
      : target.endsWith('×')
        ? `${fmt(value, 1)}×`
        : target.includes('GB')
          ? `${fmt(value)} MB`
          : target.includes(' s')
            ? `${fmt(value, 2)} s`
            : `${fmt(value, 1)} ms`;
    lines.push([name, shown, target, pass(value) ? 'PASS' : 'MISS', figures]);
  }
  lines.push([
    'GET page of 20, server CPU per request: bare / pla',
    `${fmt((f.pageBare.cpuUs / f.pagePla.cpuUs) * 100)}%`,
    '',
    '',
    `${fmt(f.pagePla.cpuUs, 1)} vs ${fmt(f.pageBare.cpuUs, 1)} µs (json-server ${fmt(f.pageJson.cpuUs, 1)} µs)`,
  ]);
  if (f.pageBefore) {
    for (const [name, after, before] of [
      ['page of 20', f.pagePla, f.pageBefore],
      ['get by id', f.getPla, f.getBefore],
      ['POST create', f.postPla, f.postBefore],
    ]) {
      lines.push([
        `${name}: this build / BENCH_COMPARE build`,
        `${fmt((after.perSecond / before.perSecond) * 100)}%`,
        '',
        '',
        `${fmt(after.perSecond)} vs ${fmt(before.perSecond)} req/s${after.cpuUs ? `; CPU ${fmt(after.cpuUs, 1)} vs ${fmt(before.cpuUs, 1)} µs/req` : ''}`,
      ]);
    }
  }
  lines.push(['GET by id, server CPU per request: pla', `${fmt(f.getPla.cpuUs, 1)} µs`, '', '', `json-server ${fmt(f.getJson.cpuUs, 1)} µs`]);
  lines.push(['store alone: page of 20 at offset 50,000', `${fmt(storeOnly.pageUs, 1)} µs`, '', '', 'in-process, no HTTP']);
  lines.push(['store alone: same, sorted by amount desc', `${fmt(storeOnly.sortedPageUs, 1)} µs`, '', '', 'cached sorted order']);
  lines.push(['store alone: get by id', `${fmt(storeOnly.getUs, 2)} µs`, '', '', '']);
  const widths = lines[0].map((_, c) => Math.max(...lines.map((line) => line[c].length)));
  for (const line of lines)
    console.log(
      line
        .map((cell, c) => cell.padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    );
  console.log(
    `\n${RECORDS.toLocaleString('en-US')} records; GETs: best of 3 alternating ${SECONDS / 2} s runs (CPU per request over all 3), POSTs: one ${SECONDS} s run (json-server ≥ 10 s); autocannon, 10 connections (POST: pla 32, json-server 1); non-2xx: pla ${f.pagePla.non2xx + f.getPla.non2xx + f.postPla.non2xx}`,
  );
  console.log(`load average (1/5/15 min, as uptime): before the loads ${f.loadBefore}; after ${f.loadAfter}`);
  if (startup.total !== BIG) console.log(`warning: the 1M server reported ${startup.total} records`);
}

// Ctrl-C still takes the servers and the temporary folder (hundreds of MB) with it.
process.once('SIGINT', () => {
  killAll();
  rmSync(work, { recursive: true, force: true });
  process.exit(130);
});

try {
  await prepare();
  const storeOnly = await measureStoreOnly();
  const figures = await measureHttp();
  const startup = await measureStartup();
  report(figures, startup, storeOnly);
} finally {
  killAll();
  await rm(work, { recursive: true, force: true });
}
