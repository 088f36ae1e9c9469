// Shared by the CLI benchmarks: running a command to completion (timed), and the
// real local server on a temporary folder. Every child is tracked so a bench can
// stop them all in its `finally`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'pla.js');
/** Children still running; a bench kills these in its `finally`. */
export const children = new Set();

/** `--name N` from the command line, else `fallback`. */
export function argValue(name, fallback) {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

/** Runs a command to completion; resolves with its exit code, counted stdout lines and stderr. */
export function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code, lines, stderr });
    });
  });
}

/** Runs a command and times it; a non-zero exit is an error. */
export async function timed(label, command, args, env) {
  const started = performance.now();
  const result = await run(command, args, env);
  const seconds = (performance.now() - started) / 1000;
  if (result.code !== 0) throw new Error(`${label} failed (exit ${result.code}):\n${result.stderr}`);
  return { ...result, seconds };
}

/** Starts `pla server start --no-seed` and resolves with its URL once it says it is listening. */
export function startLocalServer(dataDir, configDir) {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [BIN, 'server', 'start', '--port', '0', '--data', dataDir, '--no-seed', '--no-request-log', '--env-name', 'local'], {
      cwd: ROOT,
      env: { ...process.env, PLA_CONFIG_DIR: configDir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /pla local server listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => {
      children.delete(child);
      reject(new Error(`local server exited (${code}) before it was ready:\n${err}`));
    });
  });
}

/** Stops every child still running (SIGTERM) and waits for each to exit, so its folder can be removed. */
export async function stopChildren() {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('close', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
}
