/**
 * Earlier versions kept the protected environments by name in `protected.json`
 * beside `config.json`, written without the config lock, so rename, remove, export
 * and import lost track of them. The first run that opens the config after an
 * upgrade moves that list into `config.json` under the lock and renames the old
 * file to `protected.json.migrated` (kept for reference, never read again), so no
 * protection is lost and none is re-applied after a later `unprotect`.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { DEFAULT_PROTECTED } from './protection.js';
import type { EnvironmentConfig } from './types.js';
import { checkEnvName, storedEnvironment } from './validate.js';

const LEGACY_FILE = 'protected.json';

export function legacyProtectedPath(dir: string): string {
  return join(dir, LEGACY_FILE);
}

export function hasLegacyProtected(dir: string): boolean {
  return existsSync(legacyProtectedPath(dir));
}

/** The names `protected.json` lists; a file that cannot be read or is not that shape is an error, never a silent default. */
function readLegacyList(path: string): string[] {
  const fail = (why: string) =>
    new UsageError(`cannot migrate the protected environments in ${path}: ${why}`, {
      hint: `fix the file (it should read {"protected": ["production"]}) or delete it and run \`pla config protect ENV\` for each environment to protect`,
    });
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw fail((error as Error).message);
  }
  const list = (data as { protected?: unknown } | null)?.protected;
  if (!Array.isArray(list) || list.some((name) => typeof name !== 'string')) throw fail('expected {"protected": [names…]}');
  for (const name of list as string[]) {
    try {
      checkEnvName(name);
    } catch {
      throw fail(`"${name}" is not an environment name`);
    }
  }
  return list as string[];
}

/** What a migration did: the environments now, and the line that tells the user. */
export interface LegacyMerge {
  environments: Record<string, EnvironmentConfig>;
  summary: string;
}

/**
 * Merges the legacy list into the stored environments (run under the config
 * lock). A listed environment becomes protected, even one with nothing else
 * stored (it stays visible in `pla config show` and goes with `config remove`);
 * a name protected by default but left off the list had been unprotected, and
 * is stored so unless config.json already says otherwise. Protection wins: a
 * `true` already in config.json is kept. Returns `undefined` when the file is
 * gone (another run migrated it first).
 */
export function mergeLegacyProtected(dir: string, environments: Record<string, EnvironmentConfig> = {}): LegacyMerge | undefined {
  const path = legacyProtectedPath(dir);
  if (!existsSync(path)) return undefined;
  const listed = readLegacyList(path);
  const merged = { ...environments };
  for (const env of listed) merged[env] = { ...storedEnvironment(merged, env), protected: true };
  const leftOff: string[] = [];
  for (const env of DEFAULT_PROTECTED) {
    if (!listed.includes(env) && storedEnvironment(merged, env)?.protected === undefined) {
      merged[env] = { ...storedEnvironment(merged, env), protected: false };
      leftOff.push(env);
    }
  }
  const names = listed.length > 0 ? [...listed].sort().join(', ') : 'none';
  const kept = leftOff.length > 0 ? `; ${leftOff.join(', ')} stays unprotected, as the list left it off` : '';
  return {
    environments: merged,
    summary: `moved the protected environments from ${LEGACY_FILE} into config.json (protected: ${names}${kept}); the old file is now ${LEGACY_FILE}.migrated`,
  };
}

/** Moves the migrated file aside (called under the lock, after config.json is written). */
export function retireLegacyProtected(dir: string): void {
  const path = legacyProtectedPath(dir);
  if (existsSync(path)) renameSync(path, `${path}.migrated`);
}
