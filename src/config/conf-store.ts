/**
 * The `ConfigStore`, kept in `config.json` in `configDir(env)` and written through conf
 * (atomic writes, mode 0600) under a proper-lockfile lock, so that concurrent
 * read-modify-writes each see the other's result. conf and its schema machinery cost more to import than
 * node takes to start, so they are imported only when needed: always by default,
 * and never by `openConfig({ env, readOnly: true })`, which API commands use because they
 * only read the file (except once, to move an old protected.json in: see
 * legacy-protected.ts).
 */
import { chmodSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PlaError, UsageError } from '../errors.js';
import { syntaxErrorOffset } from '../json/json-parse.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, refuseSymlink } from '../io/private-files.js';
import { configDir } from './config-dir.js';
import { noteConfLoaded } from './signal-echo.js';
import { unknownEnvHint } from './closest.js';
import { BUILT_IN_ENVIRONMENTS, type ConfigStore, ENVIRONMENT_FIELDS, type EnvironmentConfig, type ServerConfig } from './types.js';
import { checkWireProfile, type WireProfile, WireProfileError } from '../contract/wire-profile.js';
import { checkApiKey, checkBaseUrl, checkEnvName, checkProxyUrl, checkStoreUrl, storedEnvironment } from './validate.js';
import { protectionFlag, protectionOf } from './protection.js';
import { hasLegacyProtected, mergeLegacyProtected, retireLegacyProtected } from './legacy-protected.js';

/** The environment used until `pla config use` picks another. */
const DEFAULT_ENV = 'local';

/** What `config.json` holds. */
interface StoredConfig extends Record<string, unknown> {
  currentEnv?: string;
  environments?: Record<string, EnvironmentConfig>;
  server?: ServerConfig;
}

/** How the store reads and writes the file. */
interface Backend {
  path: string;
  read(): StoredConfig;
  /**
   * Runs `change` on what the file holds now and writes its result, holding the
   * config lock throughout: another `pla config` run waits rather than writing
   * back a copy it read before this one's change. `afterWrite` runs once the
   * file is written, still under the lock. `purpose` (` to move protected.json in`)
   * completes the error when the file cannot be written.
   */
  update(change: (stored: StoredConfig) => StoredConfig, afterWrite?: () => void, purpose?: string): Promise<void>;
}

export interface OpenConfigOptions {
  /** The run's environment variables: `PLA_CONFIG_DIR` (or the platform's variables) name the folder. */
  env: Readonly<Record<string, string | undefined>>;
  /** Read the file without loading conf; the store's setters then throw. */
  readOnly?: boolean;
  /** Told, in a line for a person, when this run moved an old protected.json into config.json. */
  warn?: (line: string) => void;
}

/** Opens (without creating) the config file in `configDir(env)`. */
export async function openConfig(options: OpenConfigOptions): Promise<ConfigStore> {
  const dir = configDir(options.env);
  const fail = (error: unknown) =>
    new UsageError(
      `cannot read the configuration in ${dir}: ${error instanceof SyntaxError ? damagedJson(join(dir, 'config.json')) : (error as Error).message}`,
      {
        cause: error,
        hint: 'fix or delete the file (`pla config path` shows where it is)',
      },
    );
  // An upgrade from a version that kept protected.json: moved in once, by whichever run comes first (reads too, so a run never misses a protection).
  const writer = options.readOnly && !hasLegacyProtected(dir) ? undefined : await confBackend(dir, fail);
  let inMemory = false;
  if (writer && hasLegacyProtected(dir)) {
    try {
      const summary = await migrateLegacyProtected(dir, writer);
      if (summary) options.warn?.(summary);
    } catch (error) {
      if (!(error instanceof ConfigNotWritableError)) throw error;
      // Someone else's folder: its protection still holds, for this run; a command that writes fails on its own write.
      inMemory = true;
      options.warn?.(`warning: ${error.message}; the protected environments in protected.json apply to this run only`);
    }
  }
  const backend = options.readOnly || !writer ? readOnlyBackend(join(dir, 'config.json'), fail) : writer;
  keepPrivate(backend.path);
  return storeOn(inMemory ? withLegacyProtected(backend, dir) : backend);
}

/** `backend` as read with protected.json's list merged in (a folder where it cannot be moved into config.json). */
function withLegacyProtected(backend: Backend, dir: string): Backend {
  return {
    ...backend,
    read() {
      const stored = backend.read();
      const merge = mergeLegacyProtected(dir, stored.environments);
      return merge ? { ...stored, environments: merge.environments } : stored;
    },
  };
}

/**
 * How long a writer waits for the lock, and when a lock is old enough to be a
 * crashed run's leftover: a config write takes milliseconds, so seconds are ample
 * even on a loaded machine.
 */
const LOCK_OPTIONS = { realpath: false, stale: 10_000 } as const;
const LOCK_TRIES = 100;
const LOCK_WAIT = { factor: 1.2, minTimeout: 10, maxTimeout: 250 } as const;

/**
 * Where config.json stops being JSON, by line and column, never quoting it: the
 * parser's own message quotes the text around the fault, which may be a key.
 */
function damagedJson(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return 'config.json is not valid JSON';
  }
  const at = syntaxErrorOffset(text);
  if (at === undefined) return 'config.json is not valid JSON';
  const before = text.slice(0, at).split('\n');
  return `config.json is not valid JSON: it breaks at line ${before.length}, column ${(before.at(-1) ?? '').length + 1} (the text there is not shown: the file holds keys)`;
}

/** The errors of a folder this user may not write in: waiting does not change them. */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);
/** The errors of a disk with no room left (space, or the user's quota): said as such, the file left as it was. */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

/** The configuration cannot be written: the folder or file is not this user's to write, is on a read-only file system, or its disk is full. */
export class ConfigNotWritableError extends PlaError {}

/** A write refused for lack of permission or of disk space, as an error naming the file and the reason; other errors as they are. */
function notWritable(error: unknown, path: string, purpose: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && DISK_FULL.has(code)) {
    // conf writes a temporary file and renames it over config.json: a write that fails leaves the file as it was.
    return new ConfigNotWritableError(
      `cannot write ${path}${purpose}: the disk is full (${code === 'EDQUOT' ? 'quota exceeded' : 'no space left on device'}); the configuration is unchanged`,
      {
        cause: error,
        hint: `free some space on the disk holding ${dirname(path)}, then run the command again`,
      },
    );
  }
  if (code === undefined || !NOT_WRITABLE.has(code)) return error;
  const why = code === 'EROFS' ? 'read-only file system' : 'permission denied';
  return new ConfigNotWritableError(`cannot write ${path}${purpose}: ${why}`, {
    cause: error,
    hint: `${dirname(path)} must be writable by this user; or point PLA_CONFIG_DIR at a folder of your own`,
  });
}

/**
 * Takes the config lock, waiting (with growing pauses, a few seconds in all) only
 * while another run holds it. A folder this user cannot write in fails at once:
 * no waiting makes it writable, and it is no lock.
 */
async function lockConfig(path: string, purpose: string): Promise<() => Promise<void>> {
  const { default: lockfile } = await import('proper-lockfile');
  let pause: number = LOCK_WAIT.minTimeout;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await lockfile.lock(path, LOCK_OPTIONS);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw notWritable(error, path, purpose);
      if (attempt >= LOCK_TRIES) {
        throw new PlaError(`the configuration is locked by another pla run (${path}.lock)`, {
          cause: error,
          hint: 'wait for it to finish; if none is running, delete the .lock folder',
        });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * LOCK_WAIT.factor, LOCK_WAIT.maxTimeout);
  }
}

/**
 * Merges protected.json into config.json and moves it aside, under the lock;
 * returns what it did, or `undefined` when another run did it first.
 */
async function migrateLegacyProtected(dir: string, backend: Backend): Promise<string | undefined> {
  let summary: string | undefined;
  await backend.update(
    (current) => {
      const merge = mergeLegacyProtected(dir, current.environments);
      summary = merge?.summary;
      return merge ? { ...current, environments: merge.environments } : current;
    },
    () => {
      if (summary !== undefined) retireLegacyProtected(dir);
    },
    ' to move protected.json in',
  );
  return summary;
}

async function confBackend(dir: string, fail: (error: unknown) => Error): Promise<Backend> {
  const { default: Conf } = await import('conf');
  noteConfLoaded();
  let conf: InstanceType<typeof Conf<StoredConfig>>;
  // Made here, 0700: conf would make it on its first read with the default mode (0755).
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch {
    // A folder this user cannot create: `update` says so, naming the file, when it writes.
  }
  try {
    conf = new Conf<StoredConfig>({ projectName: 'pla', cwd: dir, configFileMode: PRIVATE_FILE_MODE });
  } catch (error) {
    throw fail(error);
  }
  return {
    path: conf.path,
    // conf reads the file again on every access of `store`.
    read: () => conf.store,
    async update(change, afterWrite, purpose = '') {
      try {
        mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      } catch (error) {
        throw notWritable(error, conf.path, purpose);
      }
      // conf writes through a link (to wherever it points): a key must not follow one.
      refuseSymlink(conf.path, 'configuration file');
      const release = await lockConfig(conf.path, purpose);
      try {
        let current: StoredConfig;
        try {
          current = conf.store;
        } catch (error) {
          throw fail(error);
        }
        // conf writes to a temporary file and renames it over the old one.
        try {
          conf.store = change(current);
        } catch (error) {
          throw notWritable(error, conf.path, purpose);
        }
        keepPrivate(conf.path);
        afterWrite?.();
      } finally {
        await release();
      }
    },
  };
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
    update() {
      return Promise.reject(new PlaError('the configuration was opened read-only'));
    },
  };
}

function storeOn(backend: Backend): ConfigStore {
  const stored = (): Record<string, EnvironmentConfig> => ({ ...backend.read().environments });
  const knownNames = (): string[] => [...new Set([...BUILT_IN_ENVIRONMENTS, ...Object.keys(stored())])];
  const isKnown = (env: string): boolean => knownNames().includes(env);
  const mustBeStored = (env: string, environments: Record<string, EnvironmentConfig>): void => {
    if (storedEnvironment(environments, env) === undefined) {
      throw new UsageError(`environment ${env} has nothing stored`, { hint: unknownEnvHint(env, Object.keys(environments)) });
    }
  };
  /** Changes one environment's fields; `undefined` removes a field. */
  const setFields = (env: string, change: EnvironmentConfig): Promise<void> =>
    backend.update((current) => {
      const environments = { ...current.environments };
      const merged: EnvironmentConfig = { ...storedEnvironment(environments, checkEnvName(env)), ...change };
      for (const field of ENVIRONMENT_FIELDS) if (merged[field] === undefined) delete merged[field];
      environments[env] = merged;
      return { ...current, environments };
    });

  return {
    path: backend.path,
    currentEnv: () => backend.read().currentEnv ?? DEFAULT_ENV,
    get: (env) => ({ ...storedEnvironment(stored(), env) }),
    list() {
      const all: Record<string, EnvironmentConfig> = {};
      for (const env of BUILT_IN_ENVIRONMENTS) all[env] = {};
      return { ...all, ...stored() };
    },
    isKnown,
    async use(env) {
      checkEnvName(env);
      if (!isKnown(env)) throw new UsageError(`unknown environment ${env}`, { hint: unknownEnvHint(env, knownNames()) });
      await backend.update((current) => ({ ...current, currentEnv: env }));
    },
    // async: a refused value is a rejected promise, like a failed write.
    setKey: async (env, apiKey) => setFields(env, { apiKey: checkApiKey(apiKey) }),
    setUrl: async (env, baseUrl) => setFields(env, { baseUrl: checkBaseUrl(baseUrl, env) }),
    feedFromServer: async (env, { baseUrl, localData, apiKey }) =>
      // No key given removes the one stored: it was for other data.
      setFields(env, { baseUrl: checkBaseUrl(baseUrl, env), localData, apiKey: apiKey === undefined ? undefined : checkApiKey(apiKey) }),
    setProxy: async (env, proxy) => setFields(env, { proxy: proxy === undefined ? undefined : checkProxyUrl(proxy) }),
    setCaFile: async (env, caFile) => setFields(env, { caFile }),
    setWire: async (env, wire) =>
      setFields(checkEnvName(env), { wire: wire === undefined || Object.keys(wire).length === 0 ? undefined : checkWire(env, wire) }),
    async setProtected(env, on) {
      checkEnvName(env);
      if (!isKnown(env)) throw new UsageError(`unknown environment ${env}`, { hint: unknownEnvHint(env, knownNames()) });
      await setFields(env, { protected: protectionFlag(env, on) });
    },
    server: () => ({ ...backend.read().server }),
    setStore: async (url) => {
      const store = url === undefined ? undefined : checkStoreUrl(url);
      await backend.update((current) => {
        const { server = {}, ...rest } = current;
        const next: ServerConfig = { ...server, ...(store === undefined ? {} : { store }) };
        if (store === undefined) delete next.store;
        return Object.keys(next).length ? { ...rest, server: next } : rest;
      });
    },
    remove: (env) =>
      backend.update((current) => {
        const environments = { ...current.environments };
        mustBeStored(checkEnvName(env), environments);
        delete environments[env];
        const { currentEnv, ...rest } = current;
        return { ...rest, environments, ...(currentEnv && currentEnv !== env ? { currentEnv } : {}) };
      }),
    rename: (from, to) =>
      backend.update((current) => {
        const environments = { ...current.environments };
        mustBeStored(checkEnvName(from), environments);
        if (storedEnvironment(environments, checkEnvName(to)) !== undefined) {
          throw new UsageError(`environment ${to} already exists`, { hint: `remove it first: pla config remove ${to}` });
        }
        // Protection goes with the environment, production's default one too; an
        // unprotected one takes the new name's default (so nothing renamed to production is unprotected).
        const moved: EnvironmentConfig = { ...storedEnvironment(environments, from) };
        if (protectionOf(from, moved)) moved.protected = true;
        else delete moved.protected;
        environments[to] = moved;
        delete environments[from];
        return { ...current, environments, ...(current.currentEnv === from ? { currentEnv: to } : {}) };
      }),
    importAll: (data) =>
      backend.update((current) => {
        const environments = { ...current.environments };
        for (const [env, incoming] of Object.entries(data.environments)) {
          const { protected: protect, ...fields } = checkEnvironment(checkEnvName(env), incoming);
          // Protection is only added: unprotecting one is a decision for this machine (pla config unprotect), not a shared file.
          environments[env] = { ...storedEnvironment(environments, env), ...fields, ...(protect ? { protected: true } : {}) };
        }
        const currentEnv = data.currentEnv === undefined ? current.currentEnv : checkEnvName(data.currentEnv);
        const server = data.server === undefined ? current.server : { ...current.server, ...checkServer(data.server) };
        return { ...current, environments, ...(currentEnv ? { currentEnv } : {}), ...(server ? { server } : {}) };
      }),
  };
}

/** Validates an imported environment field by field; unknown fields are refused. */
function checkEnvironment(env: string, incoming: unknown): EnvironmentConfig {
  if (typeof incoming !== 'object' || incoming === null || Array.isArray(incoming)) {
    throw new UsageError(`environment ${env}: expected an object of ${ENVIRONMENT_FIELDS.join(', ')}`);
  }
  const fields = incoming as Record<string, unknown>;
  const checked: EnvironmentConfig = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!(ENVIRONMENT_FIELDS as readonly string[]).includes(name)) {
      throw new UsageError(`environment ${env}: unknown field ${name}`, { hint: `fields are ${ENVIRONMENT_FIELDS.join(', ')}` });
    }
    if (name === 'wire') continue;
    if (name === 'protected' ? typeof value !== 'boolean' : typeof value !== 'string') {
      throw new UsageError(`environment ${env}: ${name} must be ${name === 'protected' ? 'true or false' : 'a string'}`);
    }
  }
  if (typeof fields.baseUrl === 'string') checked.baseUrl = checkBaseUrl(fields.baseUrl, env);
  if (typeof fields.apiKey === 'string') checked.apiKey = checkApiKey(fields.apiKey);
  if (typeof fields.proxy === 'string') checked.proxy = checkProxyUrl(fields.proxy);
  if (typeof fields.caFile === 'string') checked.caFile = fields.caFile;
  if (typeof fields.protected === 'boolean') checked.protected = fields.protected;
  if (fields.wire !== undefined) checked.wire = checkWire(env, fields.wire);
  if (typeof fields.localData === 'string') checked.localData = fields.localData;
  return checked;
}

/** A wire profile as stored or imported, checked by the profile's own rules. */
function checkWire(env: string, value: unknown): WireProfile {
  try {
    return checkWireProfile(value);
  } catch (error) {
    if (!(error instanceof WireProfileError)) throw error;
    throw new UsageError(`environment ${env}: ${error.message}`);
  }
}

/** Validates imported server settings; unknown fields are refused. */
function checkServer(incoming: unknown): ServerConfig {
  if (typeof incoming !== 'object' || incoming === null || Array.isArray(incoming)) throw new UsageError('"server": expected an object with store');
  const checked: ServerConfig = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (name !== 'store') throw new UsageError(`"server": unknown field ${name}`, { hint: 'the field is store' });
    if (typeof value !== 'string') throw new UsageError('"server": store must be a string');
    checked.store = checkStoreUrl(value);
  }
  return checked;
}

/**
 * conf writes new files with mode 0600, but a file created by an older run (or by
 * hand) may be wider; keys are secrets, so narrow it whenever we see it.
 */
function keepPrivate(path: string): void {
  try {
    // Not through a link: a config.json that is one is refused when written, never changed.
    const stat = lstatSync(path);
    if (!stat.isSymbolicLink() && (stat.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
  } catch (error) {
    // Gone, or someone else's file (read through a shared folder): not this run's to change.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}
