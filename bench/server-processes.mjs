// Child processes for bench/server.mjs: start one, wait for the line that says it is
// ready, stop it, and never leave one behind.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';

const running = new Set();

/** Kills every child still running; call on the way out, also after a failure. */
export function killAll() {
  for (const child of running) child.kill('SIGKILL');
}

/**
 * Starts `node <args>` and resolves once a stdout or stderr line matches `ready`, with
 * the match and the milliseconds it took. `watch` sees every line (e.g. to pick up a key).
 */
export async function startNode(args, { env = {}, cwd, ready, watch = () => {}, timeoutMs = 120_000 }) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = once(child, 'exit').then(([code]) => {
    running.delete(child);
    return code;
  });
  const tail = [];
  const match = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')}: not ready after ${timeoutMs} ms\n${tail.join('\n')}`)), timeoutMs);
    const onLine = (line) => {
      watch(line);
      tail.push(line);
      if (tail.length > 20) tail.shift();
      const found = ready.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    exited.then((code) => reject(new Error(`${args.join(' ')} exited (${code}) before it was ready\n${tail.join('\n')}`)));
  });
  return {
    child,
    match,
    readyMs: performance.now() - started,
    /** Resident memory in MB, from /proc (Linux). */
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Runs `node <args>` to the end; rejects on a non-zero exit. Returns its stdout. */
export async function runNode(args, env = {}) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  running.add(child);
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const [code] = await once(child, 'exit');
  running.delete(child);
  if (code !== 0) throw new Error(`${args.join(' ')} failed with exit code ${code}`);
  return out;
}

/** CPU time (ms, user + system) process `pid` has used so far: /proc/<pid>/stat, in clock ticks of 10 ms (Linux). */
export async function cpuMs(pid) {
  // Fields after the command name (in parentheses): utime and stime are the 12th and 13th.
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The load average over 1, 5 and 15 minutes, as `uptime` prints it. */
export async function loadAverage() {
  return (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
}

/**
 * Runs each target's load in turn, `rounds` times round (a burst of another process's
 * work then lands on every side), and keeps per target its best round, with the
 * CPU time its server used per answered request over all rounds (`cpuUs`) when the
 * target names the server's `pid`. On a shared machine the CPU per request is the
 * steadier figure: at a high load a ratio of rates measures how the scheduler shared
 * the cores as much as the servers. `run` resolves to server-load.mjs's result.
 */
export async function alternate(targets, rounds = 3) {
  const best = {};
  const spent = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, { run, pid }] of Object.entries(targets)) {
      const before = pid === undefined ? 0 : await cpuMs(pid);
      const result = await run();
      if (pid !== undefined) {
        spent[name] ??= { ms: 0, requests: 0 };
        spent[name].ms += (await cpuMs(pid)) - before;
        spent[name].requests += result.ok + result.non2xx;
      }
      if (!best[name] || result.perSecond > best[name].perSecond) best[name] = result;
    }
  }
  for (const name of Object.keys(spent)) {
    if (spent[name].requests > 0) best[name] = { ...best[name], cpuUs: (spent[name].ms * 1000) / spent[name].requests };
  }
  return best;
}

/** A port nothing listens on right now (for servers that cannot be given port 0). */
export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/** Bundles the store (src/store/index.ts) into one ES module at `outfile`, for children that fill data folders. */
export async function bundleStore(root, outfile) {
  await build({
    entryPoints: [join(root, 'src/store/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}
