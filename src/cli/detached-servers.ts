/**
 * Local servers left running in the background (`pla server start --detach`), as
 * docker keeps its containers: each has a record in the config folder's
 * `servers/` (its pid, URL, environment and log file), where `pla server status`
 * and `pla server stop` find it, and its output goes to a log file beside it.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configDir } from '../config/config-dir.js';

/** One server started with `--detach`. */
export interface DetachedServer {
  pid: number;
  url: string;
  /** The pla environment it feeds. */
  env: string;
  /** Its stdout and stderr. */
  log: string;
  startedAt: string;
}

type Variables = Readonly<Record<string, string | undefined>>;

/** The folder of the records and logs: `servers/` in the config folder. */
export function serversDir(env: Variables): string {
  return join(configDir(env), 'servers');
}

/** Where a new detached server's output goes (its pid is not known before it starts). */
export async function newLogFile(env: Variables): Promise<string> {
  const dir = serversDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return join(dir, `server-${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.log`);
}

const recordPath = (env: Variables, pid: number) => join(serversDir(env), `${pid}.json`);

export async function recordServer(env: Variables, server: DetachedServer): Promise<void> {
  await writeFile(recordPath(env, server.pid), `${JSON.stringify(server, null, 2)}\n`, { mode: 0o600 });
}

export async function forgetServer(env: Variables, pid: number): Promise<void> {
  await rm(recordPath(env, pid), { force: true });
}

/** Whether process `pid` is alive (signal 0 tests it without touching it). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** A record as written by `recordServer`, or undefined when it is not one. */
function parseRecord(text: string): DetachedServer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { pid, url, env, log, startedAt } = value as Record<string, unknown>;
  if (typeof pid !== 'number' || typeof url !== 'string' || typeof env !== 'string' || typeof log !== 'string' || typeof startedAt !== 'string')
    return undefined;
  return { pid, url, env, log, startedAt };
}

/** Every detached server recorded, oldest first. */
export async function detachedServers(env: Variables): Promise<DetachedServer[]> {
  const dir = serversDir(env);
  const names = await readdir(dir).catch(() => [] as string[]);
  const servers: DetachedServer[] = [];
  for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const server = parseRecord(text);
    // A record torn by a crash names no server it can be trusted for.
    if (server) servers.push(server);
  }
  return servers.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}
