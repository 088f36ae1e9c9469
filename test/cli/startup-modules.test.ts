/**
 * Start-up work of the built CLI, checked by what it loads rather than by time:
 * a `get` must not load the built-ins its dependencies require at the top but
 * never use on that path (scripts/startup-plugins.mjs, src/client).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

describe('start-up modules', () => {
  it('a get loads no node:http, http2, crypto, assert or child_process', async () => {
    const dir = await tempDir();
    const server = await startContractServer();
    try {
      const recorder = join(dir.path, 'recorder.cjs');
      const out = join(dir.path, 'loaded.txt');
      await writeFile(recorder, RECORDER);
      const result = await execa('node', ['--require', recorder, BIN, 'determinations', 'get', '7', '-o', 'json'], {
        env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: dir.path, PLA_BASE_URL: server.url, PLA_API_KEY: TEST_KEY, NO_COLOR: '1', LOADED_OUT: out },
        extendEnv: false,
        reject: false,
      });
      expect(result.exitCode, String(result.stderr)).toBe(0);
      expect(JSON.parse(String(result.stdout))).toEqual(RECORD);

      const loaded = (await readFile(out, 'utf8')).split('\n');
      expect(loaded).toContain('net'); // the recorder works: the request went through a socket
      for (const unused of ['http', 'http2', 'crypto', 'assert', 'child_process']) {
        expect(loaded).not.toContain(unused);
      }
    } finally {
      await server.close();
      await dir.remove();
    }
  });
});
