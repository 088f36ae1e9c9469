/**
 * Runs test/store/fixtures/commit-writer.ts in a child process: bundled once with
 * esbuild (tsx is not installed), then started with plain node, so a test can kill -9
 * a process that really holds the store.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll } from 'vitest';
import { tempDir } from './temp-dirs.js';

let bundled: Promise<string> | undefined;
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

async function bundle(): Promise<string> {
  const dir = await tempDir('pla-store-fixture-');
  const outfile = join(dir, 'commit-writer.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/commit-writer.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    // proper-lockfile is CommonJS and calls require() for Node built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return outfile;
}

/** A running commit-writer: its acknowledged commits so far, and a way to await more. */
export interface WriterChild {
  process: ChildProcess;
  acked: number[];
  stderr: string[];
  /** Resolves once `count` commits are acknowledged (or rejects when the child exits first). */
  acks(count: number): Promise<void>;
  /** kill -9, resolving once the process is gone. */
  kill(): Promise<void>;
}

/** Starts the commit-writer on `dir`; resolves when it has opened the store. */
export async function startWriter(dir: string, compactAfterEntries: number, mode: 'write' | 'hold' = 'write'): Promise<WriterChild> {
  bundled ??= bundle();
  const script = await bundled;
  const child = spawn(process.execPath, [script, dir, String(compactAfterEntries), mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  // 'close' comes after stdout is drained, so every ack the child printed has been read.
  const exited = once(child, 'close');
  const acked: number[] = [];
  const stderr: string[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let ready: () => void = () => {};
  const started = new Promise<void>((resolve) => (ready = resolve));
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') ready();
    else if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
    for (const waiter of waiters.filter((w) => acked.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const exitedEarly = exited.then(() => {
    throw new Error(`commit-writer exited early: ${stderr.join('\n')}`);
  });
  exitedEarly.catch(() => {});
  await Promise.race([started, exitedEarly]);
  return {
    process: child,
    acked,
    stderr,
    acks: (count) => Promise.race([new Promise<void>((resolve) => waiters.push({ count, resolve })), exitedEarly]),
    async kill() {
      child.kill('SIGKILL');
      await exited;
      children.delete(child);
    },
  };
}
