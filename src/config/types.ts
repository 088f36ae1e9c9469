/**
 * Environments and keys. Stored with conf in `PLA_CONFIG_DIR` (or the platform's
 * config folder), file mode 0600. Built-in environments: local, development, qa,
 * production; users may add any other name.
 */
import type { WireProfile } from '../contract/wire-profile.js';

export const BUILT_IN_ENVIRONMENTS = ['local', 'development', 'qa', 'production'] as const;

/** What an environment's name may be: a lowercase letter, then a-z, 0-9 and "-" (checkEnvName in validate.ts). */
export const ENV_NAME = /^[a-z][a-z0-9-]*$/;

/** What one environment stores; every field is optional. */
export interface EnvironmentConfig {
  baseUrl?: string;
  apiKey?: string;
  /** Forward proxy for this environment's service; wins over HTTPS_PROXY/HTTP_PROXY. */
  proxy?: string;
  /** PEM file of extra certificate authorities trusted for this environment. */
  caFile?: string;
  /**
   * Runs here read and record the records before they change (see
   * src/config/protection.ts). Unset: the default, which protects production only.
   */
  protected?: boolean;
  /** How this environment's service speaks (`pla config detect`, `pla config set-wire`); see src/contract/wire-profile.ts. */
  wire?: WireProfile;
  /**
   * The data of the local server that feeds this environment (`pla server start`
   * keeps its URL and key here): an absolute data folder, or a PostgreSQL URL
   * without its password. A server on other data never takes the environment over.
   */
  localData?: string;
}

/** The fields of an environment, for commands that walk them (export, show). */
export const ENVIRONMENT_FIELDS = ['baseUrl', 'apiKey', 'proxy', 'caFile', 'protected', 'wire', 'localData'] as const satisfies ReadonlyArray<
  keyof EnvironmentConfig
>;

/**
 * Settings of the local server (`pla server start|migrate`) kept in the config: one
 * per machine, not per environment, because environments name services the CLI
 * talks to, while these say how this machine's own server runs (as git's and gh's
 * global settings sit beside their per-remote/per-host ones).
 */
export interface ServerConfig {
  /** `postgres://…` of the store `pla server start|migrate` use when neither `--store` nor `PLA_STORE_URL` is given. */
  store?: string;
}

/** Where the effective value came from, for `pla config show` and warnings. */
export type Source = 'flag' | 'env-var' | 'config' | 'default';

export interface Connection {
  env: string;
  baseUrl: string;
  baseUrlSource: Source;
  apiKey?: string;
  apiKeySource?: Source;
  /** The environment's configured proxy (HTTPS_PROXY and friends are read by the client). */
  proxy?: string;
  /** The environment's CA file. */
  caFile?: string;
  /** The environment's stored wire profile. */
  wire?: WireProfile;
}

/** Flags that override the stored configuration (flag > PLA_* env var > config). */
export interface ConnectionFlags {
  env?: string;
  baseUrl?: string;
  apiKey?: string;
}

/** What `pla config export` writes and `import` reads. */
export interface ConfigExport {
  currentEnv?: string;
  environments: Record<string, EnvironmentConfig>;
  server?: ServerConfig;
}

export interface ConfigStore {
  /** Absolute path of the config file. */
  readonly path: string;
  /** The environment `pla config use` selected (default `local`). */
  currentEnv(): string;
  get(env: string): EnvironmentConfig;
  /** All environments, built-in ones included even when empty. */
  list(): Record<string, EnvironmentConfig>;
  /** True for a built-in environment or one stored in the file. */
  isKnown(env: string): boolean;
  // Every write below re-reads the file under a lock and replaces it atomically,
  // so two `pla config` runs at the same moment both land.
  use(env: string): Promise<void>;
  setKey(env: string, apiKey: string): Promise<void>;
  setUrl(env: string, baseUrl: string): Promise<void>;
  /**
   * Points the environment at a local server: its URL, the data it serves and its
   * admin key, in one write (no key removes the stored one: it was for other data).
   */
  feedFromServer(env: string, server: { baseUrl: string; localData: string; apiKey?: string }): Promise<void>;
  /** Sets or (with undefined) removes the environment's proxy. */
  setProxy(env: string, proxy: string | undefined): Promise<void>;
  /** Sets or (with undefined) removes the environment's CA file (an absolute path). */
  setCaFile(env: string, caFile: string | undefined): Promise<void>;
  /** Stores (or with undefined forgets) the environment's wire profile, replacing the one stored. */
  setWire(env: string, wire: WireProfile | undefined): Promise<void>;
  /**
   * Protects (or unprotects) a known environment: runs there record the records
   * before they change. Unprotecting production stores `false`; others drop the flag.
   */
  setProtected(env: string, on: boolean): Promise<void>;
  /** The local server's settings (global, not per environment). */
  server(): ServerConfig;
  /** Sets or (with undefined) removes the local server's PostgreSQL store URL. */
  setStore(url: string | undefined): Promise<void>;
  /** Forgets a stored environment; the current one falls back to `local`. */
  remove(env: string): Promise<void>;
  /**
   * Renames a stored environment (and the current-environment pointer with it).
   * Its protection goes with it, the default one too: production renamed stays protected.
   */
  rename(from: string, to: string): Promise<void>;
  /**
   * Merges environments in: fields given replace stored ones, others are kept.
   * Protection is only ever added: `"protected": false` never unprotects one here.
   */
  importAll(data: ConfigExport): Promise<void>;
}
