import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, maskKey, openConfig, resolveConnection } from '../../src/config/index.js';
import { UsageError } from '../../src/errors.js';

const VARS = ['PLA_CONFIG_DIR', 'PLA_ENV', 'PLA_BASE_URL', 'PLA_API_KEY'] as const;
let dir: string;
const saved: Partial<Record<(typeof VARS)[number], string>> = {};

beforeEach(() => {
  for (const name of VARS) {
    saved[name] = process.env[name];
    delete process.env[name];
  }
  dir = mkdtempSync(join(tmpdir(), 'pla-config-test-'));
  process.env.PLA_CONFIG_DIR = dir;
});

afterEach(() => {
  for (const name of VARS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  rmSync(dir, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('config store', () => {
  it('lives in PLA_CONFIG_DIR and is written with mode 0600', async () => {
    expect(configDir(process.env)).toBe(dir);
    const config = await openConfig({ env: process.env });
    expect(config.path).toBe(join(dir, 'config.json'));
    await config.setKey('qa', 'qa-key-0123456789');
    expect(mode(config.path)).toBe(0o600);
    const again = await openConfig({ env: process.env });
    expect(again.get('qa')).toEqual({ apiKey: 'qa-key-0123456789' });
  });

  it('narrows a wider file left by an older run to 0600', async () => {
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify({ currentEnv: 'qa', environments: { qa: { baseUrl: 'https://qa.example.com' } } }));
    chmodSync(path, 0o644);
    const config = await openConfig({ env: process.env });
    expect(mode(path)).toBe(0o600);
    expect(config.currentEnv()).toBe('qa');
    expect(config.get('qa').baseUrl).toBe('https://qa.example.com');
  });

  it('refuses a config file that is not JSON with a usage error', async () => {
    writeFileSync(join(dir, 'config.json'), '{ nope');
    await expect(openConfig({ env: process.env })).rejects.toBeInstanceOf(UsageError);
    await expect(openConfig({ env: process.env, readOnly: true })).rejects.toBeInstanceOf(UsageError);
  });

  it('read-only opening sees what conf wrote and refuses to write', async () => {
    expect((await openConfig({ env: process.env, readOnly: true })).currentEnv()).toBe('local');
    const writer = await openConfig({ env: process.env });
    await writer.setUrl('qa', 'https://qa.example.com');
    await writer.use('qa');
    const reader = await openConfig({ env: process.env, readOnly: true });
    expect(reader.path).toBe(writer.path);
    expect(reader.currentEnv()).toBe('qa');
    expect(resolveConnection({}, reader, process.env)).toMatchObject({ env: 'qa', baseUrl: 'https://qa.example.com', baseUrlSource: 'config' });
    await expect(reader.setKey('qa', 'another-key-9999')).rejects.toThrow(/read-only/);
  });

  it('starts on local, lists the built-in environments, and adds new ones', async () => {
    const config = await openConfig({ env: process.env });
    expect(config.currentEnv()).toBe('local');
    expect(Object.keys(config.list())).toEqual(['local', 'development', 'qa', 'production']);
    await expect(config.use('staging')).rejects.toThrow(UsageError);

    await config.setUrl('staging', 'https://staging.example.com/data/');
    await config.setKey('staging', '  staging-key-wxyz  ');
    await config.use('staging');
    expect(config.currentEnv()).toBe('staging');
    expect(config.list().staging).toEqual({ baseUrl: 'https://staging.example.com/data', apiKey: 'staging-key-wxyz' });
  });

  it('refuses invalid environment names, URLs and keys', async () => {
    const config = await openConfig({ env: process.env });
    for (const name of ['Staging', '1env', 'my_env', '']) await expect(config.setUrl(name, 'https://x.example.com')).rejects.toThrow(UsageError);
    for (const url of ['not a url', 'ftp://x.example.com', 'https://x.example.com/?a=1']) await expect(config.setUrl('qa', url)).rejects.toThrow(UsageError);
    await expect(config.setKey('qa', '   ')).rejects.toThrow(UsageError);
    expect(config.list().qa).toEqual({});
  });

  it('refuses a base URL carrying a user name or password, without echoing the password', async () => {
    const config = await openConfig({ env: process.env });
    const error = await config.setUrl('qa', 'https://ops:hunter2secret@x.example.com/data').then(
      () => undefined,
      (e: unknown) => e as UsageError,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(`${error?.message} ${error?.hint}`).not.toContain('hunter2secret');
    expect(error?.message).toContain('x.example.com');
    expect(() => resolveConnection({ baseUrl: 'http://ops:pw@127.0.0.1:4010' }, config, process.env)).toThrow(UsageError);
    expect(config.list().qa).toEqual({});
  });
});

describe('resolveConnection', () => {
  it('uses the local default when nothing is configured, without a key', async () => {
    const config = await openConfig({ env: process.env });
    expect(resolveConnection({}, config, process.env)).toEqual({ env: 'local', baseUrl: 'http://127.0.0.1:4010', baseUrlSource: 'default' });
  });

  it('takes flag over env var over config', async () => {
    const config = await openConfig({ env: process.env });
    await config.setUrl('qa', 'https://qa.example.com');
    await config.setKey('qa', 'config-key-1111');
    await config.use('qa');
    expect(resolveConnection({}, config, process.env)).toMatchObject({
      env: 'qa',
      baseUrl: 'https://qa.example.com',
      baseUrlSource: 'config',
      apiKey: 'config-key-1111',
      apiKeySource: 'config',
    });

    process.env.PLA_BASE_URL = 'https://env.example.com';
    process.env.PLA_API_KEY = 'env-var-key-2222';
    expect(resolveConnection({}, config, process.env)).toMatchObject({
      baseUrl: 'https://env.example.com',
      baseUrlSource: 'env-var',
      apiKey: 'env-var-key-2222',
      apiKeySource: 'env-var',
    });

    expect(resolveConnection({ baseUrl: 'http://flag.example.com/', apiKey: 'flag-key-3333' }, config, process.env)).toMatchObject({
      baseUrl: 'http://flag.example.com',
      baseUrlSource: 'flag',
      apiKey: 'flag-key-3333',
      apiKeySource: 'flag',
    });
  });

  it('picks the environment by flag, then PLA_ENV, then the current one', async () => {
    const config = await openConfig({ env: process.env });
    await config.setUrl('development', 'https://dev.example.com');
    await config.setUrl('production', 'https://prod.example.com');
    process.env.PLA_ENV = 'development';
    expect(resolveConnection({}, config, process.env)).toMatchObject({ env: 'development', baseUrl: 'https://dev.example.com' });
    expect(resolveConnection({ env: 'production' }, config, process.env)).toMatchObject({ env: 'production', baseUrl: 'https://prod.example.com' });
  });

  it('says how to set a missing base URL', async () => {
    const config = await openConfig({ env: process.env });
    const error = (() => {
      try {
        resolveConnection({ env: 'qa' }, config, process.env);
      } catch (thrown) {
        return thrown as UsageError;
      }
      throw new Error('expected a usage error');
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('no base URL for environment qa');
    expect(error.hint).toBe('pla config set-url <url> --env qa');
  });

  it('refuses an invalid flag, env var or environment name', async () => {
    const config = await openConfig({ env: process.env });
    expect(() => resolveConnection({ baseUrl: 'localhost:4010' }, config, process.env)).toThrow(UsageError);
    process.env.PLA_ENV = 'Not_Valid';
    expect(() => resolveConnection({}, config, process.env)).toThrow(UsageError);
  });
});

describe('maskKey', () => {
  it('shows only the last 4 characters, and nothing of a short key', () => {
    expect(maskKey('abcdefghijkl-1234')).toBe('••••1234');
    expect(maskKey('short-key')).toBe('••••');
    expect(maskKey('')).toBe('••••');
  });
});
