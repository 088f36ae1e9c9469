// What each start-up trick buys (docs/startup.md): builds the CLI once with all
// of them and once without each (scripts/build.mjs --without), into a temporary
// folder, then times `--help` and `determinations get 1 -o json` of every
// variant, interleaved with `node -e 0`, against a small local server. Prints
// medians of wall time and each variant's cost over the full build, and, where
// /usr/bin/time exists, the mean CPU time (user + system, all threads): on a
// machine other work keeps busy, wall times mostly measure the queue for a core,
// CPU times much less so. Reports only.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;
const root = fileURLToPath(new URL('..', import.meta.url));
const runCli = join(root, 'bin', 'run-cli.js');

/** Build variants: tricks left out at build time, and the one chosen at run time. */
const variants = [
  { name: 'all tricks', without: [] },
  { name: 'without lazy-h2', without: ['lazy-h2'] },
  { name: 'without lazy-http (both)', without: ['lazy-http-util', 'lazy-http-client'] },
  { name: 'without lazy-assert', without: ['lazy-assert'] },
  { name: 'without lazy-child-process', without: ['lazy-child-process'] },
  { name: 'without code-cache', without: ['code-cache'] },
  { name: 'without commonjs (nor code-cache)', without: ['commonjs'] },
  { name: 'without liftoff-only', without: [], liftoffOnly: false },
  { name: 'without any', without: ['lazy-h2', 'lazy-http-util', 'lazy-http-client', 'lazy-assert', 'lazy-child-process', 'commonjs'], liftoffOnly: false },
];

const work = await mkdtemp(join(tmpdir(), 'pla-tricks-'));
const server = createServer((req, res) => {
  const body = JSON.stringify({ success: true, message: 'ok', data: { id: 1, name: 'bench', status: 'ACTIVE' } });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});

const TIME = '/usr/bin/time';
const withCpu = existsSync(TIME);

/** One run: wall ms, and CPU ms (user + system) when /usr/bin/time is there. */
function timeOnce(args, env) {
  const [command, argv] = withCpu ? [TIME, ['-f', '%U %S', process.execPath, ...args]] : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wall = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      const [user, system] = stderr.trim().split('\n').at(-1).split(' ').map(Number);
      resolve({ wall, cpu: withCpu ? (user + system) * 1000 : NaN });
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
// /usr/bin/time reports centiseconds: a mean of many runs resolves finer than a median.
const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;

try {
  for (const [i, variant] of variants.entries()) {
    const dir = join(work, String(i));
    await mkdir(dir);
    const dist = join(dir, 'dist');
    process.stderr.write(`building: ${variant.name}\n`);
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), `--out=${dist}`, `--without=${variant.without.join(',')}`], { stdio: 'inherit' });
    variant.launcher = join(dir, 'pla.cjs');
    const options = variant.liftoffOnly === false ? ', { liftoffOnly: false }' : '';
    await writeFile(variant.launcher, `require(${JSON.stringify(runCli)}).runCli(${JSON.stringify(dist)}, process.argv${options});\n`);
  }
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const env = {
    ...process.env,
    PLA_CONFIG_DIR: work,
    PLA_BASE_URL: `http://127.0.0.1:${server.address().port}`,
    PLA_API_KEY: 'bench-key-0123456789',
    NO_COLOR: '1',
  };
  const commands = [
    { name: '--help', args: ['--help'] },
    { name: 'get 1 -o json', args: ['determinations', 'get', '1', '-o', 'json'] },
  ];
  const cases = [{ name: 'node -e 0', args: ['-e', '0'] }];
  for (const variant of variants) {
    for (const command of commands) cases.push({ variant, command, args: [variant.launcher, ...command.args] });
  }
  const times = cases.map(() => []);
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (const [i, c] of cases.entries()) {
      const ms = await timeOnce(c.args, env);
      if (round >= WARMUP) times[i].push(ms);
    }
  }
  const measures = [{ name: 'wall, median', of: (runs) => median(runs.map((r) => r.wall)) }];
  if (withCpu) measures.push({ name: 'CPU, mean', of: (runs) => mean(runs.map((r) => r.cpu)) });
  for (const measure of measures) {
    const reference = measure.of(times[0]);
    const ms = (variant, command) => measure.of(times[cases.findIndex((c) => c.variant === variant && c.command === command)]);
    console.log(`Start-up tricks, ${measure.name} of ${RUNS} runs (${process.version}); node -e 0: ${reference.toFixed(1)} ms`);
    console.log(`  ${'variant'.padEnd(36)} ${commands.map((c) => c.name.padStart(26)).join('')}`);
    for (const variant of variants) {
      const cells = commands.map((command) => {
        const value = ms(variant, command);
        const extra = value - ms(variants[0], command);
        return `${value.toFixed(1).padStart(7)} ms ${(value / reference).toFixed(2)}× ${variant === variants[0] ? '       ' : `${extra >= 0 ? '+' : ''}${extra.toFixed(1).padStart(5)}`}`.padStart(26);
      });
      console.log(`  ${variant.name.padEnd(36)} ${cells.join('')}`);
    }
  }
} finally {
  server.close();
  await rm(work, { recursive: true, force: true });
}
