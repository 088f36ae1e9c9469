/**
 * `pla config` environments: remove, rename, export/import, "did you mean", key
 * validation, and concurrent writes that all land (the lock around conf's
 * read-modify-write).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pla, tempDir } from './support.js';

let config: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  config = await tempDir();
});

afterEach(async () => {
  await config.remove();
});

const run = (args: string[], input?: string) => pla(args, { configDir: config.path, ...(input !== undefined ? { input } : {}) });
const stored = async () =>
  JSON.parse(await readFile(join(config.path, 'config.json'), 'utf8')) as { currentEnv?: string; environments: Record<string, Record<string, string>> };

describe('config environments', () => {
  it('every one of many pairs of simultaneous writes lands', async () => {
    for (let pair = 0; pair < 20; pair++) {
      const [url, key] = await Promise.all([
        run(['config', 'set-url', `https://pair-${pair}.example.com`, '--env', `env-${pair}`]),
        run(['config', 'set-key', '--env', `env-${pair}`], `key-of-pair-${pair}-0123456789`),
      ]);
      expect([url.exitCode, key.exitCode, url.stderr, key.stderr]).toEqual([
        0,
        0,
        `env-${pair} now uses https://pair-${pair}.example.com\n`,
        `saved key ••••6789 for env-${pair}\n`,
      ]);
    }
    const { environments } = await stored();
    for (let pair = 0; pair < 20; pair++) {
      expect(environments[`env-${pair}`]).toEqual({ baseUrl: `https://pair-${pair}.example.com`, apiKey: `key-of-pair-${pair}-0123456789` });
    }
  });

  it('refuses a key with control or non-ASCII characters, without echoing it, and stores nothing', async () => {
    for (const key of ['abc\u0007defghijklmno', 'abcéfghijklmnop', 'abc def ghi jkl', 'abc\u200bdefghijklmno']) {
      const result = await run(['config', 'set-key', '--env', 'qa'], key);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/^error: invalid API key: character 4 is (a control character|not ASCII|whitespace) \(U\+[0-9A-F]{4}\)/);
      expect(result.stderr).not.toContain('ghijkl');
    }
    const show = await run(['config', 'show', '-o', 'json']);
    expect((JSON.parse(show.stdout) as Array<Record<string, unknown>>).find((row) => row.env === 'qa')?.apiKey).toBe('');
  });

  it('suggests the environment meant by a typo', async () => {
    await run(['config', 'set-url', 'https://staging.example.com', '--env', 'staging']);
    const [use, get, far] = await Promise.all([
      run(['config', 'use', 'prodution']),
      run(['-e', 'stagign', 'det', 'get', '1']),
      run(['-e', 'zzz', 'det', 'get', '1']),
    ]);
    expect([use.exitCode, get.exitCode, far.exitCode]).toEqual([2, 2, 2]);
    expect(use.stderr).toBe('error: unknown environment prodution\nhint: did you mean production?\n');
    expect(get.stderr).toBe('error: unknown environment stagign\nhint: did you mean staging?\n');
    expect(far.stderr).toMatch(/hint: add it first: pla config set-url <url> --env zzz/);
  });

  it('renames and removes environments, moving the current one along', async () => {
    await run(['config', 'set-url', 'https://qa.example.com', '--env', 'qa']);
    await run(['config', 'set-key', '--env', 'qa'], 'qa-key-0123456789');
    await run(['config', 'use', 'qa']);
    const renamed = await run(['config', 'rename', 'qa', 'qa-eu']);
    expect(renamed.stderr).toBe('renamed qa to qa-eu\n');
    expect(await stored()).toMatchObject({
      currentEnv: 'qa-eu',
      environments: { 'qa-eu': { baseUrl: 'https://qa.example.com', apiKey: 'qa-key-0123456789' } },
    });
    expect((await stored()).environments.qa).toBeUndefined();

    const clash = await run(['config', 'rename', 'qa-eu', 'qa-eu']);
    expect(clash.exitCode).toBe(2);
    const missing = await run(['config', 'remove', 'qa-ue']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/hint: did you mean qa-eu\?/);

    const removed = await run(['config', 'remove', 'qa-eu']);
    expect(removed.stderr).toBe('removed qa-eu; now using local\n');
    const after = await stored();
    expect(after.environments['qa-eu']).toBeUndefined();
    expect(after.currentEnv).toBeUndefined();
  });

  it('exports without keys unless --with-keys --yes, and imports into another config', async () => {
    await run(['config', 'set-url', 'https://prod.example.com', '--env', 'production']);
    await run(['config', 'set-key', '--env', 'production'], 'prod-key-0123456789');
    await run(['config', 'set-proxy', 'http://ana:pw-9876@proxy.example.com:3128', '--env', 'production']);

    const plain = await run(['config', 'export']);
    expect(plain.exitCode).toBe(0);
    expect(JSON.parse(plain.stdout)).toEqual({
      currentEnv: 'local',
      environments: { production: { baseUrl: 'https://prod.example.com', proxy: 'http://ana@proxy.example.com:3128', protected: true } },
    });
    expect(plain.stderr).toBe('left out 2 secrets (API keys, proxy and store passwords); --with-keys includes them\n');

    const unconfirmed = await run(['config', 'export', '--with-keys']);
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stdout).toBe('');
    const withKeys = await run(['config', 'export', '--with-keys', '--yes']);
    expect(JSON.parse(withKeys.stdout).environments.production).toEqual({
      baseUrl: 'https://prod.example.com',
      proxy: 'http://ana:pw-9876@proxy.example.com:3128',
      protected: true,
      apiKey: 'prod-key-0123456789',
    });

    const other = await tempDir();
    try {
      const imported = await pla(['config', 'import', '-'], { configDir: other.path, input: withKeys.stdout });
      expect(imported.stderr).toBe('imported 1 environment: production\n');
      const show = await pla(['config', 'show', '-o', 'json', '-e', 'production'], { configDir: other.path });
      expect((JSON.parse(show.stdout) as Array<Record<string, unknown>>).find((row) => row.env === 'production')).toMatchObject({
        baseUrl: 'https://prod.example.com',
        apiKey: '••••6789',
        proxy: 'http://ana:••••@proxy.example.com:3128',
      });
      const bad = await pla(['config', 'import', '-'], { configDir: other.path, input: '{"environments":{"qa":{"baseUrl":"ftp://x"}}}' });
      expect(bad.exitCode).toBe(2);
      const notJson = await pla(['config', 'import', '-'], { configDir: other.path, input: 'nope' });
      expect(notJson.stderr).toMatch(/^error: - is not JSON/);
    } finally {
      await other.remove();
    }
  });
});
