// `npm run bench:million`: the JSON-file store at a million records as users make them.
// Fills a data folder with 1,000,000 determinations written through the server's own
// API (bench/million-prepare.mjs: bulk creates of 1,000, then a journal of
// BENCH_BULK_TAIL more in bulk, default 100,000, and BENCH_TAIL one request each,
// default 50,000; every record stamped by the server), starts `pla server start` on
// it, and prints the time to the first answer, resident memory, and three ratios
// against references measured in the same run:
//   - a page of 20 against a bare node:http server answering the same bytes;
//   - a get by id against the same bare server answering that record's bytes;
//   - durable creates at 10 connections against a bare append + fdatasync loop on
//     the same disk.
// Each load runs three rounds alternating with the others, BENCH_SECONDS / 2 each
// (default 6), the best round kept; the reads also print the servers' CPU time per
// request (the steadier figure on a shared machine). Needs `npm run build` first.
// BENCH_BASELINE=<another checkout, built> measures that pla too, in the same run and
// on its own data folder filled by its own server: before and after a change, side by
// side. BENCH_DATA=<folder> keeps the filled folders there (a fill takes minutes) and
// reuses them on the next run, each copied before the server starts on it.
import { rmSync } from 'node:fs';
import { cp, readFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, cpuMs, killAll, loadAverage, runNode, startNode } from './server-processes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const COUNT = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const TAIL = Number(process.env.BENCH_TAIL ?? 50_000);
const BULK_TAIL = Number(process.env.BENCH_BULK_TAIL ?? 100_000);
const KEEP = process.env.BENCH_DATA;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const DET = '/api/v1/asset-transaction-type-determinations';
const work = await mkdtemp(join(tmpdir(), 'pla-bench-million-'));
const plas = [{ name: 'pla', root }, ...(process.env.BENCH_BASELINE ? [{ name: 'baseline', root: process.env.BENCH_BASELINE }] : [])].map((pla) => ({
  ...pla,
  data: join(work, `data-${pla.name}`),
}));
const log = (line) => process.stderr.write(`${line}\n`);

async function load(options) {
  const out = await runNode([here('./server-load.mjs')], { BENCH_LOAD: JSON.stringify({ duration: SECONDS / 2, connections: 10, ...options }) });
  return JSON.parse(out);
}

/** Resident memory (MB) and CPU time used so far (ms, user + system). */
async function memoryMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1]) / 1024;
  return { hwm: kb('VmHWM'), rss: kb('VmRSS'), cpuMs: await cpuMs(pid) };
}

async function startPla({ name, root: plaRoot, data }) {
  const key = (await readFile(`${data}.key`, 'utf8')).trim();
  const started = performance.now();
  const server = await startNode([join(plaRoot, 'bin/pla.js'), 'server', 'start', '--port', '0', '--data', data, '--no-seed', '--no-request-log'], {
    env: { PLA_CONFIG_DIR: join(work, `config-${name}`), NO_COLOR: '1' },
    ready: /listening on (http:\/\/\S+)/,
    timeoutMs: 600_000,
  });
  const url = server.match[1];
  const headers = { 'x-api-key': key };
  const response = await fetch(`${url}${DET}?page=2500&size=20`, { headers });
  const firstPage = await response.text();
  const firstAnswerMs = performance.now() - started;
  if (!response.ok) throw new Error(`first page answered ${response.status}: ${firstPage}`);
  return { server, url, headers, firstAnswerMs, firstPage, memory: await memoryMb(server.child.pid) };
}

const exists = (path) =>
  stat(path).then(
    () => true,
    () => false,
  );
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

process.once('SIGINT', () => {
  killAll();
  rmSync(work, { recursive: true, force: true });
  process.exit(130);
});

try {
  const files = {};
  let fillSeconds = 0;
  for (const pla of plas) {
    const kept = KEEP && join(KEEP, `data-${pla.name}-${COUNT}-${BULK_TAIL}-${TAIL}`);
    if (!kept || !(await exists(`${kept}.key`))) {
      log(`${pla.name}: filling a data folder with ${fmt(COUNT)} determinations through its server's API …`);
      const filling = performance.now();
      await runNode([here('./million-prepare.mjs'), pla.root, kept || pla.data, String(COUNT), String(BULK_TAIL), String(TAIL)]);
      fillSeconds = (performance.now() - filling) / 1000;
    }
    if (kept) {
      log(`${pla.name}: copying the data folder kept in ${kept} …`);
      await cp(kept, pla.data, { recursive: true });
      await cp(`${kept}.key`, `${pla.data}.key`);
      // The lock of the server killed when the folder was filled: its process id may be another process's by now.
      await rm(join(pla.data, 'store.lock'), { recursive: true, force: true });
    }
    for (const name of ['snapshot.pla', 'snapshot.idx', 'journal.ndjson']) {
      const size = await stat(join(pla.data, name)).then(
        (s) => s.size,
        () => undefined,
      );
      if (size !== undefined) files[`${pla.name} ${name}`] = size;
    }
  }

  const loadAtStart = await loadAverage();
  const started = [];
  for (const pla of plas) {
    log(`${pla.name}: starting the server …`);
    started.push({ ...pla, ...(await startPla(pla)) });
  }
  const [first] = started;
  const total = JSON.parse(first.firstPage)?.page?.totalElements;

  await writeFile(join(work, 'page.json'), first.firstPage);
  const getPath = `${DET}/${Math.ceil(COUNT / 2)}`;
  const getBody = await (await fetch(first.url + getPath, { headers: first.headers })).text();
  await writeFile(join(work, 'get.json'), getBody);
  const barePage = await startNode([here('./server-bare.mjs'), join(work, 'page.json')], { ready: /listening on (http:\/\/\S+)/ });
  const bareGet = await startNode([here('./server-bare.mjs'), join(work, 'get.json')], { ready: /listening on (http:\/\/\S+)/ });

  const loadAtLoad = await loadAverage();
  log(`page of 20 and get by id, 3 alternating rounds of ${fmt(SECONDS / 2, 1)} s each …`);
  const readTargets = {
    barePage: { run: () => load({ url: barePage.match[1] }), pid: barePage.child.pid },
    bareGet: { run: () => load({ url: bareGet.match[1] }), pid: bareGet.child.pid },
  };
  for (const pla of started) {
    const { pid } = pla.server.child;
    readTargets[`${pla.name} page`] = { run: () => load({ url: `${pla.url}${DET}?page=2500&size=20`, headers: pla.headers }), pid };
    readTargets[`${pla.name} get`] = { run: () => load({ url: pla.url + getPath, headers: pla.headers }), pid };
  }
  const reads = await alternate(readTargets);
  log('durable creates at 10 connections, and a bare append + fdatasync loop …');
  const body = JSON.stringify({ name: 'bench', transactionType: 'LEASE', companyCode: 'C001', amount: 12.5 });
  const writeTargets = { disk: { run: async () => JSON.parse(await runNode([here('./disk-bare.mjs'), work, String(SECONDS / 2)])) } };
  for (const pla of started) writeTargets[`${pla.name} create`] = { run: () => load({ url: pla.url + DET, method: 'POST', body, headers: pla.headers }) };
  const writes = await alternate(writeTargets);
  const after = {};
  for (const pla of started) after[pla.name] = await memoryMb(pla.server.child.pid);
  const loadAtEnd = await loadAverage();
  await Promise.all([...started.map((pla) => pla.server.stop('SIGKILL')), barePage.stop(), bareGet.stop()]);

  const mb = (bytes) => `${fmt(bytes / 1024 / 1024)} MB`;
  const rows = [['figure', 'value', 'reference', 'ratio', 'goal']];
  const ratio = (name, value, reference, goal) => {
    const r = value.perSecond / reference.perSecond;
    rows.push([
      name,
      `${fmt(value.perSecond)} /s`,
      `${fmt(reference.perSecond)} /s`,
      `${fmt(r * 100)} %`,
      goal ? `≥ ${goal} % ${r * 100 >= goal ? 'PASS' : 'MISS'}` : '',
    ]);
    // The same comparison by the servers' CPU time per request: reference / value, as the rates are value / reference.
    if (value.cpuUs !== undefined && reference.cpuUs !== undefined) {
      rows.push([
        `  same, server CPU per request`,
        `${fmt(value.cpuUs, 1)} µs`,
        `${fmt(reference.cpuUs, 1)} µs`,
        `${fmt((reference.cpuUs / value.cpuUs) * 100)} %`,
        '',
      ]);
    }
  };
  for (const pla of started) {
    const label = (text) => (started.length > 1 ? `${pla.name}: ${text}` : text);
    rows.push(
      [label('start to first answer'), `${fmt(pla.firstAnswerMs)} ms`, '', '', `< 2,000 ms ${pla.firstAnswerMs < 2000 ? 'PASS' : 'MISS'}`],
      [label('CPU time of the server by then (user + system)'), `${fmt(pla.memory.cpuMs)} ms`, '', '', ''],
      [
        label('resident at first answer: VmHWM / VmRSS'),
        `${fmt(pla.memory.hwm)} / ${fmt(pla.memory.rss)} MB`,
        '',
        '',
        `< 300 MB ${pla.memory.hwm < 300 ? 'PASS' : 'MISS'}`,
      ],
      [label('resident after the loads: VmHWM / VmRSS'), `${fmt(after[pla.name].hwm)} / ${fmt(after[pla.name].rss)} MB`, '', '', ''],
    );
    ratio(label('page of 20 / bare node:http'), reads[`${pla.name} page`], reads.barePage, 60);
    ratio(label('get by id / bare node:http'), reads[`${pla.name} get`], reads.bareGet);
    ratio(label('durable create, 10 conn. / bare append+fdatasync'), writes[`${pla.name} create`], writes.disk, 30);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, c) => cell.padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    );
  console.log(
    `\n${fmt(COUNT)} determinations written through the API, the last ${fmt(BULK_TAIL)} in bulk and ${fmt(TAIL)} one by one in the journal` +
      `${fillSeconds ? ` (filled in ${fmt(fillSeconds, 1)} s)` : ' (a kept folder)'}; files: ${Object.entries(files)
        .map(([name, size]) => `${name} ${mb(size)}`)
        .join(', ')}; the server counted ${fmt(total ?? NaN)}`,
  );
  console.log(`a record as stored and served: ${JSON.stringify(JSON.parse(getBody).data ?? JSON.parse(getBody))}`);
  console.log(`load average (1/5/15 min): at start ${loadAtStart}; before the loads ${loadAtLoad}; at the end ${loadAtEnd}`);
  const non2xx = Object.entries({ ...reads, ...writes }).reduce((sum, [, result]) => sum + (result.non2xx ?? 0), 0);
  if (non2xx > 0) console.log(`warning: ${non2xx} non-2xx answers`);
} finally {
  killAll();
  await rm(work, { recursive: true, force: true });
}
