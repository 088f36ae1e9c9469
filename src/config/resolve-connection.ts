/**
 * Works out which environment, base URL and key a command uses:
 * flag > env var (`PLA_ENV`, `PLA_BASE_URL`, `PLA_API_KEY`) > config > default.
 */
import { UsageError } from '../errors.js';
import { LOCAL_BASE_URL } from '../server/options.js';
import { unknownEnvHint } from './closest.js';
import type { ConfigStore, Connection, ConnectionFlags, Source } from './types.js';
import { checkBaseUrl, checkEnvName } from './validate.js';
import { checkWireProfile, type WireProfile } from '../contract/wire-profile.js';

/**
 * Base URLs known without configuration: the local server's default address.
 * Kept here, not in conf-store.ts, so that a `get` given its URL and key by flags
 * or PLA_* variables does not load the config store: 4 of its 48 files, 19 KB,
 * 2 to 11 ms of a 220 ms start in paired runs (docs/startup.md).
 */
const DEFAULT_BASE_URLS: ReadonlyMap<string, string> = new Map([['local', LOCAL_BASE_URL]]);

/** The stored profile, checked: a hand-edited config file must not steer the client with a setting it would refuse. */
function storedWire(env: string, wire: unknown): WireProfile {
  try {
    return checkWireProfile(wire);
  } catch (error) {
    throw new UsageError(`environment ${env}: ${(error as Error).message}`, {
      hint: `pla config detect --env ${env}, or pla config set-wire --unset --env ${env}`,
    });
  }
}

/** The first set value with where it came from; empty strings count as unset. */
function pick(candidates: ReadonlyArray<readonly [string | undefined, Source]>): { value: string; source: Source } | undefined {
  for (const [value, source] of candidates) if (value) return { value, source };
  return undefined;
}

/**
 * Resolves the connection from the flags, the environment variables `envVars`
 * and the config; throws a UsageError when no base URL is known or a value is invalid.
 */
export function resolveConnection(flags: ConnectionFlags, config: ConfigStore, envVars: Readonly<Record<string, string | undefined>>): Connection {
  const env = checkEnvName(flags.env || envVars.PLA_ENV || config.currentEnv());
  const stored = config.get(env);

  const baseUrl = pick([
    [flags.baseUrl, 'flag'],
    [envVars.PLA_BASE_URL, 'env-var'],
    [stored.baseUrl, 'config'],
    [DEFAULT_BASE_URLS.get(env), 'default'],
  ]);
  if (!baseUrl) {
    if (!config.isKnown(env)) throw new UsageError(`unknown environment ${env}`, { hint: unknownEnvHint(env, Object.keys(config.list())) });
    throw new UsageError(`no base URL for environment ${env}`, { hint: `pla config set-url <url> --env ${env}` });
  }
  const apiKey = pick([
    [flags.apiKey, 'flag'],
    [envVars.PLA_API_KEY, 'env-var'],
    [stored.apiKey, 'config'],
  ]);

  return {
    env,
    baseUrl: checkBaseUrl(baseUrl.value, env),
    baseUrlSource: baseUrl.source,
    // A missing key is allowed: the service answers 401 and the client says how to set one.
    ...(apiKey ? { apiKey: apiKey.value, apiKeySource: apiKey.source } : {}),
    ...(stored.proxy ? { proxy: stored.proxy } : {}),
    ...(stored.caFile ? { caFile: stored.caFile } : {}),
    ...(stored.wire ? { wire: storedWire(env, stored.wire) } : {}),
  };
}
