/**
 * Protected environments (production by default; `pla config protect ENV`): runs
 * there always read and record the records before they change, so every run can
 * be undone. Kept in `protected.json` beside `config.json`, written atomically.
 */
import { readFileSync } from 'node:fs';
import { rename, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { configDir } from '../config/config-dir.js';

const DEFAULT_PROTECTED = ['production'];

function filePath(): string {
  return join(configDir(), 'protected.json');
}

/** The protected environments: the file's list, else production. */
export function protectedEnvironments(): string[] {
  try {
    const data = JSON.parse(readFileSync(filePath(), 'utf8')) as { protected?: unknown };
    if (Array.isArray(data.protected)) return data.protected.filter((env): env is string => typeof env === 'string');
  } catch {
    // No file yet (or an unreadable one): the default applies.
  }
  return [...DEFAULT_PROTECTED];
}

export function isProtected(env: string): boolean {
  return protectedEnvironments().includes(env);
}

/** Protects (or, with `on` false, unprotects) an environment; returns the new list. */
export async function setProtected(env: string, on: boolean): Promise<string[]> {
  const current = protectedEnvironments().filter((name) => name !== env);
  const next = on ? [...current, env].sort() : current;
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  const temporary = `${filePath()}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ protected: next }, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, filePath());
  return next;
}
