/** `pla config`: keys from stdin, masked display, the file's mode, and using what is stored. */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DETERMINATIONS_PREFIX as D } from '../../src/contract/operations.js';
import { pla, startContractServer, tempDir } from './support.js';

let config: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  config = await tempDir();
});

afterEach(async () => {
  await config.remove();
});

const QA_KEY = 'qa-secret-key-0123456789';

describe('config', () => {
  it('stores a key piped on stdin in a 0600 file under PLA_CONFIG_DIR, and shows it masked', async () => {
    const set = await pla(['config', 'set-key', '--env', 'qa'], { configDir: config.path, input: `${QA_KEY}\n` });
    expect(set.exitCode).toBe(0);
    expect(set.stderr).toBe('saved key ••••6789 for qa\n');
    const file = join(config.path, 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain(QA_KEY);

    const [path, show] = await Promise.all([
      pla(['config', 'path'], { configDir: config.path }),
      pla(['config', 'show', '-o', 'json'], { configDir: config.path }),
    ]);
    expect(path.stdout).toBe(`${file}\n`);
    expect(`${show.stdout}${show.stderr}`).not.toContain(QA_KEY);
    const qa = (JSON.parse(show.stdout) as Array<Record<string, unknown>>).find((row) => row.env === 'qa');
    expect(qa).toMatchObject({ apiKey: '••••6789', apiKeySource: 'config' });
  });

  it('uses the current environment’s stored URL and key when no variables are set', async () => {
    const server = await startContractServer();
    try {
      // One after the other: each rewrites the whole config file.
      expect((await pla(['config', 'set-url', server.url, '--env', 'qa'], { configDir: config.path })).exitCode).toBe(0);
      expect((await pla(['config', 'set-key', '--env', 'qa'], { configDir: config.path, input: QA_KEY })).exitCode).toBe(0);
      expect((await pla(['config', 'use', 'qa'], { configDir: config.path })).stderr).toBe('now using qa\n');

      const get = await pla(['det', 'get', '7'], { configDir: config.path });
      expect(get.exitCode).toBe(0);
      expect(server.requests[0]?.path).toBe(`${D}/7`);
      expect(server.requests[0]?.headers['x-api-key']).toBe(QA_KEY);

      const show = await pla(['config', 'show', '-o', 'json'], { configDir: config.path, env: { PLA_API_KEY: 'env-key-abcdefghijkl' } });
      const qa = (JSON.parse(show.stdout) as Array<Record<string, unknown>>).find((row) => row.env === 'qa');
      expect(qa).toMatchObject({ current: true, baseUrl: server.url, baseUrlSource: 'config', apiKey: '••••ijkl', apiKeySource: 'env-var' });
    } finally {
      await server.close();
    }
  });

  it('refuses an empty key and an unknown environment', async () => {
    const [empty, unknown] = await Promise.all([
      pla(['config', 'set-key', '--env', 'qa'], { configDir: config.path, input: '\n' }),
      pla(['config', 'use', 'nowhere'], { configDir: config.path }),
    ]);
    expect(empty.exitCode).toBe(2);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown environment nowhere/);
  });
});
