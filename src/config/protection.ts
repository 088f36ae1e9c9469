/**
 * Protection, as the config stores it: a `protected` flag on each environment in
 * `config.json`, so that rename, remove, export and import carry it with the rest
 * of the environment. An environment without the flag takes the default, which
 * protects `production` only; `pla config unprotect production` stores `false`.
 * What a run does on a protected environment lives in src/runs/protected-envs.ts.
 */
import { UsageError } from '../errors.js';
import type { EnvironmentConfig } from './types.js';

/** Environments protected unless explicitly unprotected. */
export const DEFAULT_PROTECTED: readonly string[] = ['production'];

/**
 * Whether `env` is protected, given what it stores. A flag that is not a boolean
 * (a hand edit) is an error rather than a guess: guessing wrong could leave a
 * finance environment without its undo records.
 */
export function protectionOf(env: string, stored: EnvironmentConfig): boolean {
  const flag: unknown = stored.protected;
  if (flag === undefined) return DEFAULT_PROTECTED.includes(env);
  if (typeof flag !== 'boolean') {
    throw new UsageError(`environment ${env} has "protected": ${JSON.stringify(flag)} in config.json; expected true or false`, {
      hint: `pla config protect ${env} (or unprotect ${env}) stores it again`,
    });
  }
  return flag;
}

/**
 * The flag to store for `pla config protect|unprotect`: `true`, or for an
 * unprotect either `false` (a name protected by default, so the choice must be
 * remembered) or nothing (the default already leaves it unprotected).
 */
export function protectionFlag(env: string, on: boolean): boolean | undefined {
  if (on) return true;
  return DEFAULT_PROTECTED.includes(env) ? false : undefined;
}
