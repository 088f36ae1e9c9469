/**
 * A local server left running: `pla server start --detach` starts the same command
 * without `--detach` as a process of its own (its output to a log file), waits
 * until it listens, records it (src/cli/detached-servers.ts) and returns;
 * `pla server status` lists the servers so started, `pla server stop` ends one
 * (SIGTERM: the server shuts down in order, as on Ctrl-C). As `docker run -d`,
 * `docker ps` and `docker stop` do for containers.
 */
import { spawn } from 'node:child_process';
import { access, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ChildExitError, PlaError, UsageError } from '../../errors.js';
import { renderRows } from '../../io/output/index.js';
import { writeOut } from '../../io/output/write-out.js';
import { writeLine } from '../../io/streams.js';
import { type DetachedServer, detachedServers, forgetServer, isRunning, newLogFile, recordServer } from '../detached-servers.js';
import { withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { chosenEnv } from '../chosen-env.js';
import { NEW_ADMIN_KEY, newAdminKeyLines } from './new-admin-key.js';

/**
 * The line the server prints once it listens (the URL alone with -q, src/server/start.ts),
 * and the one naming the environment it feeds (src/cli/handlers/server.ts).
 */
const READY = /^(?:pla local server listening on )?(http:\/\/\S+)$/m;
const FEEDS = /environment (\S+) points at this server/;
/** How long a detached server may take to listen, and to stop. */
const START_WAIT_MS = 60_000;
const STOP_WAIT_MS = 30_000;

/** bin/pla.js of this package: the folder above this module's holding a `bin/pla.js` (dist/ when built, src/ in tests). */
async function launcher(): Promise<string> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'bin', 'pla.js');
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
    const up = dirname(dir);
    if (up === dir) throw new PlaError('cannot find bin/pla.js to start the server with');
    dir = up;
  }
}

/** The last lines of a log, for an error. */
async function tail(log: string): Promise<string> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-5).join('\n');
}

/**
 * `pla server start --detach`: the same start, in the background. Prints the URL on
 * stdout; the pid, environment and log file on stderr (not with -q: the URL alone).
 * The server's own lines, request lines included unless `--no-request-log`, go to
 * its log file.
 */
export async function startDetached(invocation: Invocation): Promise<void> {
  const log = await newLogFile(invocation.env);
  const out = await open(log, 'a', 0o600);
  // The same command in the foreground: `--no-detach` last outranks -d in any form (-d, --detach).
  // -q is what this command prints; the log is a log, with the whole ready line.
  const args = [...invocation.argv.filter((arg) => arg !== '-q' && arg !== '--quiet'), '--no-detach', '--detached-child'];
  let exited: number | null | undefined;
  const child = spawn(process.execPath, [await launcher(), ...args], {
    detached: true,
    stdio: ['ignore', out.fd, out.fd],
    env: { ...invocation.env },
    cwd: invocation.cwd,
  });
  child.on('exit', (code) => (exited = code));
  await out.close();
  const pid = child.pid;
  if (pid === undefined) throw new PlaError(`the server did not start: ${await tail(log)}`);
  const deadline = Date.now() + START_WAIT_MS;
  let url: string | undefined;
  let env: string | undefined;
  let text = '';
  while (url === undefined || env === undefined) {
    if (exited !== undefined) {
      throw new ChildExitError(`the server stopped before it listened (exit ${String(exited)}):\n${await tail(log)}`, exited, { hint: `its log: ${log}` });
    }
    if (Date.now() > deadline) throw new PlaError(`the server did not listen within ${START_WAIT_MS / 1000} s (pid ${pid})`, { hint: `its log: ${log}` });
    await sleep(100, undefined, { signal: invocation.signal });
    text = await readFile(log, 'utf8');
    url = READY.exec(text)?.[1];
    env = FEEDS.exec(text)?.[1];
  }
  child.unref();
  await recordServer(invocation.env, { pid, url, env, log, startedAt: new Date().toISOString() });
  invocation.io.stdout.write(`${url}\n`);
  if (invocation.opts.quiet) return;
  // A first start's admin key: the log has it masked; shown here once, from the config the server saved it in.
  if (text.includes(NEW_ADMIN_KEY)) await showNewAdminKey(invocation, env);
  writeLine(invocation.io, `pla server: running in the background, pid ${pid}, environment ${env}; log: ${log}`);
  writeLine(invocation.io, `stop it with: pla server stop -e ${env}   (pla server status lists the servers left running)`);
}

/** `pla server status`: the servers started with `--detach`, running or not. */
export function status(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const servers = await detachedServers(ctx.env);
    const rows = servers.map((server) => ({
      env: server.env,
      pid: server.pid,
      state: isRunning(server.pid) ? 'running' : 'stopped',
      url: server.url,
      log: server.log,
    }));
    // -q: the environments of the servers running, one a line (what `pla server stop -e` takes), as `docker ps -q` lists ids.
    if (ctx.output.quiet) {
      for (const row of rows) if (row.state === 'running') await writeOut(ctx.output.stdout, `${row.env}\n`);
      return;
    }
    await renderRows(rows, ctx.output);
    if (servers.length === 0) ctx.note('no server started with --detach: none is running in the background (pla server start --detach starts one)');
  });
}

/** Waits until `pid` is gone, or the deadline passes (then false). */
async function stopped(pid: number, signal: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + STOP_WAIT_MS;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100, undefined, { signal });
  }
  return true;
}

/** `pla server stop`: ends the detached server of the chosen environment (SIGTERM), and forgets it. */
export function stop(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = await chosenEnv(ctx);
    const servers = await detachedServers(ctx.env);
    const ours: DetachedServer[] = servers.filter((server) => server.env === env);
    if (ours.length === 0) {
      const others = servers.map((server) => `-e ${server.env} (pid ${server.pid})`).join(', ');
      throw new UsageError(`no server started with --detach feeds ${env}`, {
        hint: others ? `servers left running: ${others}` : 'pla server status lists the servers left running',
      });
    }
    for (const server of ours) {
      if (isRunning(server.pid)) {
        process.kill(server.pid, 'SIGTERM');
        if (!(await stopped(server.pid, ctx.signal)))
          throw new PlaError(`the server (pid ${server.pid}) did not stop within ${STOP_WAIT_MS / 1000} s`, { hint: `its log: ${server.log}` });
        ctx.note(`stopped the server of ${env} (pid ${server.pid}); its log: ${server.log}`);
      } else {
        ctx.note(`the server of ${env} (pid ${server.pid}) had stopped already; its log: ${server.log}`);
      }
      await forgetServer(ctx.env, server.pid);
    }
  });
}

/** Shows the admin key a detached first start created and saved for `env`, as a foreground start shows it. */
async function showNewAdminKey(invocation: Invocation, env: string): Promise<void> {
  const { openConfig } = await import('../../config/index.js');
  const key = (await openConfig({ env: invocation.env, readOnly: true })).get(env).apiKey;
  if (key === undefined) return;
  for (const line of ['', ...newAdminKeyLines(key, env), '']) writeLine(invocation.io, line);
}
