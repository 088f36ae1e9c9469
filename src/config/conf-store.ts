/**
 * The `ConfigStore`, kept in `config.json` in `configDir()` and written through conf
 * (atomic writes, mode 0600). conf and its schema machinery cost more to import than
 * node takes to start, so they are imported only when needed: always by default,
 * and never by `openConfig({ readOnly: true })`, which API commands use because they
 * only read the file.
 */
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PlaError, UsageError } from '../errors.js';
import { LOCAL_BASE_URL } from '../server/options.js';
import { configDir } from './config-dir.js';
import { noteConfLoaded } from './signal-echo.js';
import { BUILT_IN_ENVIRONMENTS, type ConfigStore, type EnvironmentConfig } from './types.js';
import { checkApiKey, checkBaseUrl, checkEnvName } from './validate.js';

/** The environment used until `pla config use` picks another. */
const DEFAULT_ENV = 'local';

/** Base URLs known without configuration: the local server's default address. */
export const DEFAULT_BASE_URLS: Readonly<Record<string, string>> = { local: LOCAL_BASE_URL };

/** What `config.json` holds. */
interface StoredConfig extends Record<string, unknown> {
  currentEnv?: string;
  environments?: Record<string, EnvironmentConfig>;
}

/** How the store reads and writes the file. */
interface Backend {
  path: string;
  read(): StoredConfig;
  write(change: StoredConfig): void;
}

const PRIVATE_MODE = 0o600;

export interface OpenConfigOptions {
  /** Read the file without loading conf; the store's setters then throw. */
  readOnly?: boolean;
}

/** Opens (without creating) the config file in `configDir()`. */
export async function openConfig(options: OpenConfigOptions = {}): Promise<ConfigStore> {
  const dir = configDir();
  const fail = (error: unknown) =>
    new UsageError(`cannot read the configuration in ${dir}: ${(error as Error).message}`, {
      cause: error,
      hint: 'fix or delete the file (`pla config path` shows where it is)',
    });
  const backend = options.readOnly ? readOnlyBackend(join(dir, 'config.json'), fail) : await confBackend(dir, fail);
  keepPrivate(backend.path);
  return storeOn(backend);
}

async function confBackend(dir: string, fail: (error: unknown) => Error): Promise<Backend> {
  const { default: Conf } = await import('conf');
  noteConfLoaded();
  try {
    const conf = new Conf<StoredConfig>({ projectName: 'pla', cwd: dir, configFileMode: PRIVATE_MODE });
    return {
      path: conf.path,
      read: () => conf.store,
      write(change) {
        conf.set(change);
        keepPrivate(conf.path);
      },
    };
  } catch (error) {
    throw fail(error);
  }
}

function readOnlyBackend(path: string, fail: (error: unknown) => Error): Backend {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fail(error);
    text = '{}';
  }
  let stored: StoredConfig;
  try {
    stored = JSON.parse(text) as StoredConfig;
  } catch (error) {
    throw fail(error);
  }
  return {
    path,
    read: () => stored,
    write() {
      throw new PlaError('the configuration was opened read-only');
    },
  };
}

function storeOn(backend: Backend): ConfigStore {
  const environments = (): Record<string, EnvironmentConfig> => ({ ...backend.read().environments });
  const update = (env: string, change: EnvironmentConfig): void => {
    const all = environments();
    all[checkEnvName(env)] = { ...all[env], ...change };
    backend.write({ environments: all });
  };
  const isKnown = (env: string): boolean => (BUILT_IN_ENVIRONMENTS as readonly string[]).includes(env) || env in environments();

  return {
    path: backend.path,
    currentEnv: () => backend.read().currentEnv ?? DEFAULT_ENV,
    use(env) {
      checkEnvName(env);
      if (!isKnown(env)) {
        throw new UsageError(`unknown environment ${env}`, { hint: `add it first: pla config set-url <url> --env ${env}` });
      }
      backend.write({ currentEnv: env });
    },
    get: (env) => ({ ...environments()[env] }),
    setKey: (env, apiKey) => update(env, { apiKey: checkApiKey(apiKey) }),
    setUrl: (env, baseUrl) => update(env, { baseUrl: checkBaseUrl(baseUrl, env) }),
    list() {
      const all: Record<string, EnvironmentConfig> = {};
      for (const env of BUILT_IN_ENVIRONMENTS) all[env] = {};
      return { ...all, ...environments() };
    },
  };
}

/**
 * conf writes new files with mode 0600, but a file created by an older run (or by
 * hand) may be wider; keys are secrets, so narrow it whenever we see it.
 */
function keepPrivate(path: string): void {
  try {
    if ((statSync(path).mode & 0o777) !== PRIVATE_MODE) chmodSync(path, PRIVATE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
