/**
 * Which environment of the pla config a local server feeds. `pla server start`
 * keeps the server's URL (and, on a first start, its admin key) in an environment
 * so that `pla` works against it at once, but it never takes over an environment
 * silently: the default data folder on the default port feeds `local`; any other
 * folder, port or store feeds an environment of its own (`--env-name NAME`, or a
 * name derived from the folder); an environment that holds a key for other data
 * is only taken over when the user says so at a prompt.
 */
import { basename, resolve } from 'node:path';
import { withoutPassword } from '../contract/secrets.js';
import { UsageError } from '../errors.js';
import type { ConfigStore, EnvironmentConfig } from '../config/types.js';
import { checkEnvName } from '../config/validate.js';
import { DEFAULT_SERVER_OPTIONS } from '../server/options.js';
import type { IOStreams } from '../io/streams.js';

/** The data a server serves, as environments record it: a resolved folder, or a PostgreSQL URL without its password. */
export function localDataOf(dataDir: string, storeUrl: string | undefined): string {
  return storeUrl ? withoutPassword(storeUrl) : resolve(dataDir);
}

/** `My Data.2` → `my-data-2`: a name that passes the config's rule for environment names. */
function slug(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return name || 'data';
}

/** The name a server's environment gets without `--env-name`. */
export function derivedEnvName(server: { dataDir: string; port: number; storeUrl?: string | undefined }): string {
  if (server.storeUrl) {
    const database = URL.canParse(server.storeUrl) ? new URL(server.storeUrl).pathname.slice(1) : '';
    return `local-${slug(database || 'postgres')}`;
  }
  const folder = resolve(server.dataDir);
  if (folder === resolve(DEFAULT_SERVER_OPTIONS.dataDir) && server.port === DEFAULT_SERVER_OPTIONS.port) return 'local';
  if (folder === resolve(DEFAULT_SERVER_OPTIONS.dataDir)) return `local-${server.port}`;
  return `local-${slug(basename(folder))}`;
}

/** True when the environment may be pointed at a server of `localData` without asking. */
function isFree(stored: EnvironmentConfig, env: string, localData: string): boolean {
  if (!stored.apiKey || stored.localData === localData) return true;
  // Kept by a server start before environments recorded their data: `local` was always the default folder's.
  return env === 'local' && stored.localData === undefined && localData === resolve(DEFAULT_SERVER_OPTIONS.dataDir);
}

export interface ServerEnvironment {
  env: string;
  localData: string;
  /** The key the environment holds for this data already, if any. */
  keptKey?: string;
}

/**
 * The environment this server feeds: `--env-name` or the derived name, once it is
 * free for this data (or the user agreed, on a terminal, to point it here).
 * Throws a UsageError (exit 2, before the server starts) otherwise.
 */
export async function chooseServerEnvironment(
  config: ConfigStore,
  io: IOStreams,
  signal: AbortSignal,
  server: { envName?: string | undefined; dataDir: string; port: number; storeUrl?: string | undefined },
): Promise<ServerEnvironment> {
  const localData = localDataOf(server.dataDir, server.storeUrl);
  // A name the config would refuse is refused now, before the server starts.
  const env = checkEnvName(server.envName ?? derivedEnvName(server));
  const stored = config.get(env);
  if (isFree(stored, env, localData)) return { env, localData, ...(stored.apiKey ? { keptKey: stored.apiKey } : {}) };
  const owner = stored.localData ? `the local server of ${stored.localData}` : 'a key set with pla config';
  const question = `environment ${env} holds ${owner} (${stored.baseUrl ?? 'no URL'})`;
  if (!io.canPrompt()) {
    throw new UsageError(`${question}; this server (data in ${localData}) will not take it over`, {
      hint: `give this server an environment of its own: --env-name NAME (or drop the old one first: pla config remove ${env})`,
    });
  }
  const { confirm } = await import('../io/prompt.js');
  const agreed = await confirm(`${question[0]?.toUpperCase()}${question.slice(1)}. Point it at this server (data in ${localData}) instead?`, {
    input: io.stdin,
    output: io.stderr,
    signal,
  });
  if (!agreed)
    throw new UsageError('not confirmed; the environment is unchanged', { hint: 'start with --env-name NAME to give this server an environment of its own' });
  return { env, localData };
}
