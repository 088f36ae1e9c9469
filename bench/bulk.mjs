// Bulk benchmark: upsert 100,000 records from ndjson through the CLI, export them
// back as ndjson, and the CLI's peak memory while streaming 1,000,000 records.
//
//   npm run bench            (or: node bench/bulk.mjs [--records 100000] [--big 1000000])
//
// The upsert and export run against the real local server (`pla server start
// --no-seed` on a temporary data folder). The memory run streams into a tiny
// node:http sink that accepts every bulk request at once, so it measures the
// CLI's own memory (reading, batching, sending), not the server's. Everything
// runs in a temporary folder removed at the end; child processes are stopped.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, argValue, children, run, startLocalServer, stopChildren, timed } from './support.mjs';

const RECORDS = argValue('--records', 100_000);
const BIG = argValue('--big', 1_000_000);
const TARGETS = { upsert: 10_000, export: 20_000, rssMb: 150 };

/** Writes `n` determination-like records as ndjson, with back-pressure. */
async function writeRecords(path, n, prefix) {
  const out = createWriteStream(path);
  for (let i = 0; i < n; i++) {
    const line = `${JSON.stringify({ ref: `${prefix}-${i}`, companyCode: `C${i % 97}`, transactionType: 'TRANSFER', amount: (i % 1000) + 0.25, active: i % 2 === 0 })}\n`;
    if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
}

/** A bulk endpoint that takes anything and answers at once: the CLI's side only. */
async function startSink() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true,"message":"ok","data":[]}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Peak RSS of a CLI run in MB: GNU time's report when installed, else VmHWM polled from /proc. */
async function peakRss(args, env) {
  if (existsSync('/usr/bin/time')) {
    const result = await run('/usr/bin/time', ['-v', 'node', ...args], env);
    if (result.code !== 0) throw new Error(`memory run failed (exit ${result.code}):\n${result.stderr}`);
    const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1]);
    return { mb: kb / 1024, how: '/usr/bin/time -v' };
  }
  const child = spawn('node', args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });
  children.add(child);
  let kb = 0;
  const poll = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (match) kb = Math.max(kb, Number(match[1]));
    } catch {
      // The process has just exited.
    }
  }, 50);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(poll);
  children.delete(child);
  if (code !== 0) throw new Error(`memory run failed (exit ${code})`);
  return { mb: kb / 1024, how: '/proc VmHWM polling' };
}

const rate = (n, seconds) => Math.round(n / seconds);
const fmt = (n) => n.toLocaleString('en-US');
function verdict(label, value, target, unit, higherIsBetter) {
  const ratio = higherIsBetter ? value / target : target / value;
  const pass = higherIsBetter ? value >= target : value < target;
  console.log(
    `${label.padEnd(34)} ${fmt(value).padStart(10)} ${unit.padEnd(10)} target ${higherIsBetter ? '≥' : '<'} ${fmt(target)}  ×${ratio.toFixed(2)}  ${pass ? 'PASS' : 'MISS'}`,
  );
  return pass;
}

const work = await mkdtemp(join(tmpdir(), 'pla-bench-bulk-'));
let server;
let sink;
try {
  const configDir = join(work, 'config');
  const dataDir = join(work, 'data');
  const small = join(work, 'records.ndjson');
  const big = join(work, 'big.ndjson');
  console.log(`bulk bench: ${fmt(RECORDS)} records upsert + export; ${fmt(BIG)} records for peak memory`);
  await writeRecords(small, RECORDS, 'bench');
  server = await startLocalServer(dataDir, configDir);
  const env = { PLA_CONFIG_DIR: configDir };

  const upsert = await timed('upsert', 'node', [BIN, 'determinations', 'upsert', '--file', small], env);
  const exported = await timed('export', 'node', [BIN, 'determinations', 'list', '--all', '-o', 'ndjson', '--size', '1000'], env);
  if (exported.lines !== RECORDS) throw new Error(`export gave ${exported.lines} records, expected ${RECORDS}`);
  server.child.kill('SIGTERM');

  await writeRecords(big, BIG, 'big');
  sink = await startSink();
  const memory = await peakRss([BIN, 'determinations', 'upsert', '--file', big], { PLA_BASE_URL: sink.url, PLA_API_KEY: 'bench-key-0000' });

  console.log('');
  const results = [
    verdict(`upsert ${fmt(RECORDS)} (ndjson → server)`, rate(RECORDS, upsert.seconds), TARGETS.upsert, 'records/s', true),
    verdict(`export ${fmt(RECORDS)} (list --all → ndjson)`, rate(RECORDS, exported.seconds), TARGETS.export, 'records/s', true),
    verdict(`peak RSS streaming ${fmt(BIG)}`, Math.round(memory.mb), TARGETS.rssMb, 'MB', false),
  ];
  console.log(`\n(upsert ${upsert.seconds.toFixed(1)} s, export ${exported.seconds.toFixed(1)} s; memory by ${memory.how})`);
  if (results.includes(false)) process.exitCode = 1;
} finally {
  await stopChildren();
  await sink?.close();
  await rm(work, { recursive: true, force: true });
}
