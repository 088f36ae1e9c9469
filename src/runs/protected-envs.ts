/**
 * Protected environments (production by default; `pla config protect ENV`): runs
 * there always read and record the records before they change, so every run can
 * be undone. The flag is kept with each environment in `config.json`, so rename,
 * remove, export and import carry it (src/config/protection.ts has the rule);
 * this is where the rest of the code asks.
 */
import { protectionOf } from '../config/protection.js';
import type { ConfigStore } from '../config/types.js';

/** The protected environments, by name, sorted. */
export function protectedEnvironments(config: ConfigStore): string[] {
  return Object.entries(config.list())
    .filter(([env, stored]) => protectionOf(env, stored))
    .map(([env]) => env)
    .sort();
}

/** Whether runs in `env` record the records before (a malformed flag in config.json is an error). */
export function isProtected(config: ConfigStore, env: string): boolean {
  return protectionOf(env, config.get(env));
}
