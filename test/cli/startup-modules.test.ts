/**
 * Start-up work of the built CLI, checked by what it loads rather than by time:
 * a `get` and `--help` must not load the modules their dependencies require at
 * the top but never use on that path (scripts/startup-plugins.mjs, docs/startup.md).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, RECORD, TEST_KEY, startContractServer, tempDir } from './support.js';

/** Preloaded into the CLI: writes the built-in modules it loaded to $LOADED_OUT at exit. */
const RECORDER = `
process.on('exit', () => {
  const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
  require('node:fs').writeFileSync(process.env.LOADED_OUT, loaded.join('\\n'));
});
`;

/** Runs the built CLI with `args` and returns the built-in modules it loaded. */
async function loadedBy(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
  stdin: 'pipe' | 'ignore' = 'pipe',
): Promise<{ stdout: string; loaded: string[] }> {
  const recorder = join(dir, 'recorder.cjs');
  const out = join(dir, 'loaded.txt');
  await writeFile(recorder, RECORDER);
  const result = await execa('node', ['--require', recorder, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: dir, NO_COLOR: '1', LOADED_OUT: out, ...env },
    extendEnv: false,
    reject: false,
    stdin,
  });
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return { stdout: String(result.stdout), loaded: (await readFile(out, 'utf8')).split('\n') };
}

describe('start-up modules', () => {
  it('a get loads no node:http, http2, crypto, assert or child_process', async () => {
    const dir = await tempDir();
    const server = await startContractServer();
    try {
      const { stdout, loaded } = await loadedBy(dir.path, ['determinations', 'get', '7', '-o', 'json'], { PLA_BASE_URL: server.url, PLA_API_KEY: TEST_KEY });
      expect(JSON.parse(stdout)).toEqual(RECORD);
      expect(loaded).toContain('net'); // the recorder works: the request went through a socket
      for (const unused of ['http', 'http2', 'tls', 'crypto', 'assert', 'child_process']) {
        expect(loaded).not.toContain(unused);
      }
    } finally {
      await server.close();
      await dir.remove();
    }
  });

  it('--help loads no node:child_process', async () => {
    const dir = await tempDir();
    try {
      const { stdout, loaded } = await loadedBy(dir.path, ['--help']);
      expect(stdout).toContain('Usage: pla');
      expect(loaded).toContain('fs'); // the recorder works
      expect(loaded).not.toContain('child_process');
    } finally {
      await dir.remove();
    }
  });

  it('a get that reads no input never builds the stdin stream', async () => {
    // stdin on /dev/null: Node would make it a file stream on first touch, with
    // the fs stream, fs/promises and readline modules (src/cli/system-io.ts).
    const dir = await tempDir();
    const server = await startContractServer();
    try {
      const { stdout, loaded } = await loadedBy(dir.path, ['determinations', 'get', '7', '-o', 'json'], { PLA_BASE_URL: server.url, PLA_API_KEY: TEST_KEY }, 'ignore');
      expect(JSON.parse(stdout)).toEqual(RECORD);
      expect(loaded).not.toContain('internal/fs/streams');
      expect(loaded).not.toContain('internal/readline/interface');
    } finally {
      await server.close();
      await dir.remove();
    }
  });

  it('the code caches name the files where they are, not the build\'s staging folder', async () => {
    // V8 shows the name a cache was made with in stack traces (bin/run-cli.js).
    const dist = join(dirname(BIN), '..', 'dist');
    const caches = (await readdir(dist, { recursive: true })).filter((file) => file.endsWith('.cache'));
    expect(caches.length).toBeGreaterThan(0);
    for (const file of caches) {
      const cache = await readFile(join(dist, file));
      expect(cache.includes('.build-'), file).toBe(false);
    }
  });
});
