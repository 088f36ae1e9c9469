/**
 * Runs the built CLI against a service with nothing of the caller's environment
 * and reports its peak resident memory (written by peak-memory.cjs, preloaded, when
 * the process exits), for tests that bound what an answer may cost.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { BIN, TEST_KEY } from '../cli/support.js';

const PEAK_MODULE = fileURLToPath(new URL('./peak-memory.cjs', import.meta.url));

export interface PeakRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  elapsedMs: number;
  peakBytes: number;
}

/** Runs `pla args` against `url` with `dir` as home and config folder; `name` names the run's peak file there. */
export async function runWithPeak(url: string, args: string[], dir: string, name: string): Promise<PeakRun> {
  const peakFile = join(dir, `${name}.peak`);
  const started = performance.now();
  const result = await execa('node', ['--require', PEAK_MODULE, BIN, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      PLA_CONFIG_DIR: dir,
      NO_COLOR: '1',
      PLA_BASE_URL: url,
      PLA_API_KEY: TEST_KEY,
      PLA_TEST_PEAK_FILE: peakFile,
    },
    extendEnv: false,
    reject: false,
    // A CLI that never ends fails the test here instead of hanging it.
    timeout: 120_000,
  });
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    elapsedMs: performance.now() - started,
    peakBytes: Number(await readFile(peakFile, 'utf8')),
  };
}
