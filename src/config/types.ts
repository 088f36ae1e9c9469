/**
 * Environments and keys. Stored with conf in `PLA_CONFIG_DIR` (or the platform's
 * config folder), file mode 0600. Built-in environments: local, development, qa,
 * production; users may add any other name.
 */

export const BUILT_IN_ENVIRONMENTS = ['local', 'development', 'qa', 'production'] as const;

export interface EnvironmentConfig {
  baseUrl?: string;
  apiKey?: string;
}

/** Where the effective value came from, for `pla config show` and warnings. */
export type Source = 'flag' | 'env-var' | 'config' | 'default';

export interface Connection {
  env: string;
  baseUrl: string;
  baseUrlSource: Source;
  apiKey?: string;
  apiKeySource?: Source;
}

/** Flags that override the stored configuration (flag > PLA_* env var > config). */
export interface ConnectionFlags {
  env?: string;
  baseUrl?: string;
  apiKey?: string;
}

export interface ConfigStore {
  /** Absolute path of the config file. */
  readonly path: string;
  /** The environment `pla config use` selected (default `local`). */
  currentEnv(): string;
  use(env: string): void;
  get(env: string): EnvironmentConfig;
  setKey(env: string, apiKey: string): void;
  setUrl(env: string, baseUrl: string): void;
  /** All environments, built-in ones included even when empty. */
  list(): Record<string, EnvironmentConfig>;
}
