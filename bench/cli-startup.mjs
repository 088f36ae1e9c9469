// CLI start-up benchmark: median wall time of `pla --version`, `pla --help`,
// `pla __complete …` (what shell completion runs) and
// `pla determinations get 1 -o json` (against a small local server started here),
// each as a ratio to `node -e 0` on the same machine and the same Node. Runs are
// interleaved so that a busy neighbour slows every command alike. Reports only; no
// assertions.
//
// Every Node is measured: the one running this, then each that
// `node scripts/install-node.mjs 22 24 26` put in the cache (scripts/node-cache.mjs),
// each against its own `node -e 0`, its compile cache warm (the warm-up rounds fill
// it). BENCH_NODES=PATH[,PATH…] names the node binaries instead.
//
// BENCH_COMPARE=DIR[,DIR…] adds `--version`, `--help`, completion and `get` run by other checkouts (each built,
// e.g. `git worktree add /tmp/before <commit> && cd /tmp/before && npm ci`),
// interleaved with these runs: a before/after of a change on one busy machine.
//
// The last row is the floor of a `get` (bench/undici-floor.mjs): undici's public entry
// point bundled as pla bundles it, one request, the record printed, nothing of pla.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedNodes } from '../scripts/node-cache.mjs';
import { buildUndiciFloor } from './undici-floor.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;
const bin = fileURLToPath(new URL('../bin/pla.js', import.meta.url));

const server = createServer((req, res) => {
  const body = JSON.stringify({ success: true, message: 'ok', data: { id: 1, name: 'bench', status: 'ACTIVE' } });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const configDir = await mkdtemp(join(tmpdir(), 'pla-bench-'));
const env = {
  ...process.env,
  PLA_CONFIG_DIR: configDir,
  PLA_BASE_URL: `http://127.0.0.1:${server.address().port}`,
  PLA_API_KEY: 'bench-key-0123456789',
  NO_COLOR: '1',
};

// The everyday path: URL and key stored with `pla config set-url/set-key`, no PLA_* variables.
const storedConfigDir = await mkdtemp(join(tmpdir(), 'pla-bench-'));
const storedEnv = { ...env, PLA_CONFIG_DIR: storedConfigDir };
delete storedEnv.PLA_BASE_URL;
delete storedEnv.PLA_API_KEY;
execFileSync(process.execPath, [bin, 'config', 'set-url', env.PLA_BASE_URL], { env: storedEnv, stdio: 'ignore' });
execFileSync(process.execPath, [bin, 'config', 'set-key'], { env: storedEnv, input: `${env.PLA_API_KEY}\n`, stdio: ['pipe', 'ignore', 'ignore'] });

const floor = await buildUndiciFloor();

const cases = [
  { name: 'node -e 0 (reference)', args: ['-e', '0'] },
  { name: 'pla --version', args: [bin, '--version'], target: 1.3 },
  { name: 'pla --help', args: [bin, '--help'], target: 1.5 },
  // Shell completion must not be slower than --version: same target.
  { name: 'pla __complete det de (completion)', args: [bin, '__complete', 'det', 'de'], target: 1.3 },
  { name: 'pla __complete -e "" (env names)', args: [bin, '__complete', '-e', ''], target: 1.3, env: storedEnv },
  { name: 'pla determinations get 1 -o json', args: [bin, 'determinations', 'get', '1', '-o', 'json'], target: 4.0 },
  { name: '  same, URL and key from the config', args: [bin, 'determinations', 'get', '1', '-o', 'json'], target: 4.0, env: storedEnv },
  { name: '  undici alone + one request (floor)', args: [floor.launcher] },
  ...(process.env.BENCH_COMPARE ?? '')
    .split(',')
    .filter(Boolean)
    .flatMap((dir) => [
      { name: `  --version, built at ${dir}`, args: [join(dir, 'bin', 'pla.js'), '--version'] },
      { name: `  --help, built at ${dir}`, args: [join(dir, 'bin', 'pla.js'), '--help'] },
      { name: `  completion, built at ${dir}`, args: [join(dir, 'bin', 'pla.js'), '__complete', 'det', 'de'] },
      { name: `  get, built at ${dir}`, args: [join(dir, 'bin', 'pla.js'), 'determinations', 'get', '1', '-o', 'json'] },
    ]),
];

const nodes = process.env.BENCH_NODES
  ? process.env.BENCH_NODES.split(',').filter(Boolean)
  : [process.execPath, ...installedNodes().filter((node) => node !== process.execPath)];

function timeOnce(node, args, runEnv = env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(node, args, { env: runEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(Number(process.hrtime.bigint() - start) / 1e6);
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

try {
  for (const node of nodes) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const loadBefore = loadavg()[0];
    const times = cases.map(() => []);
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const [i, c] of cases.entries()) {
        const ms = await timeOnce(node, c.args, c.env);
        if (round >= WARMUP) times[i].push(ms);
      }
    }
    const reference = median(times[0]);
    const width = Math.max(36, ...cases.map((c) => c.name.length));
    // Figures mean little without the machine's load beside them (a busy neighbour raises every ratio).
    const load = `load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`;
    console.log(`CLI start-up on Node ${version}, median of ${RUNS} runs (${process.platform}, ${load})`);
    for (const [i, c] of cases.entries()) {
      const ms = median(times[i]);
      const ratio = ms / reference;
      const verdict = c.target === undefined ? '' : `target ≤${c.target.toFixed(1)}×  ${ratio <= c.target ? 'PASS' : 'MISS'}`;
      console.log(`  ${c.name.padEnd(width)} ${ms.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2).padStart(5)}×  ${verdict}`);
    }
  }
} finally {
  server.close();
  await floor.remove();
  await rm(configDir, { recursive: true, force: true });
  await rm(storedConfigDir, { recursive: true, force: true });
}
