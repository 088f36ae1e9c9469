/**
 * `pla server …` on the CLI side. `start` runs the local server (src/server) and
 * keeps what the CLI needs of it in the pla config: the URL of the environment it
 * feeds (src/cli/server-environment.ts) and, on a first start, the admin key the
 * server minted (the server keeps only its hash and never touches the CLI's
 * config). `keys|health|log|reset` call the running server's `/_admin` endpoints
 * through the ordinary client, on the chosen environment as every command
 * chooses it (-e, PLA_ENV, else the one `pla config use` made current, which is
 * also the one a new key is meant for);
 * `keys create --data DIR` writes a key into a stopped server's folder instead.
 */
import { parseRecordId } from '../../contract/ids.js';
import { maskKey } from '../../contract/secrets.js';
import { UsageError } from '../../errors.js';
import { renderRecord, renderRows } from '../../io/output/index.js';
import type { StartFlags } from '../../server/start.js';
import { DEFAULT_SERVER_OPTIONS, REQUEST_LOG_LIMITS } from '../../server/options.js';
import { withContext, type CommandContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { confirmDestructive } from './safety.js';
import { NEW_ADMIN_KEY, newAdminKeyLines } from './new-admin-key.js';

/**
 * The store URL kept in the pla config (`pla config set-store`), read only when
 * neither `--store` nor `PLA_STORE_URL` gives one, as they outrank it.
 */
async function configuredStore(invocation: Invocation<[], { store?: string }>): Promise<string | undefined> {
  if (invocation.opts.store || invocation.env.PLA_STORE_URL) return undefined;
  const { openConfig } = await import('../../config/index.js');
  return (await openConfig({ env: invocation.env, readOnly: true })).server().store;
}

/** `pla server migrate`: the server's migrations, on the store the flags, environment or config name. */
export async function migrate(invocation: Invocation<[], { store?: string }>): Promise<void> {
  const { runServerMigrate } = await import('../../server/start.js');
  await runServerMigrate(invocation.opts, invocation.io, await configuredStore(invocation));
}

/**
 * `pla server start`: runs the server until SIGINT/SIGTERM. Before it starts, the
 * environment it will feed is chosen (src/cli/server-environment.ts); once it
 * listens, that environment points at it, with the admin key of a first start.
 */
export async function start(invocation: Invocation<[], StartFlags & { envName?: string; detach?: boolean; detachedChild?: boolean }>): Promise<void> {
  if (invocation.opts.detach) return (await import('./server-detached.js')).startDetached(invocation);
  const { runServerStart, storeOf } = await import('../../server/start.js');
  const { chooseServerEnvironment } = await import('../server-environment.js');
  const { openConfig } = await import('../../config/index.js');
  // `-e X` names the environment the server feeds, as `--env-name X` does (kubectl's -n, docker's --context: one flag for where).
  const { env: chosen, envName: named } = invocation.opts;
  if (chosen && named && chosen !== named) throw new UsageError(`-e ${chosen} and --env-name ${named} name two environments`, { hint: 'give one of them' });
  const flags = { ...invocation.opts, envName: named ?? chosen };
  const stored = await configuredStore(invocation);
  const note = (line: string): void => void invocation.io.stderr.write(`${line}\n`);
  const placement = await chooseServerEnvironment(await openConfig({ env: invocation.env, readOnly: true }), invocation.io, invocation.signal, {
    envName: flags.envName,
    dataDir: flags.data ?? DEFAULT_SERVER_OPTIONS.dataDir,
    port: Number(flags.port ?? DEFAULT_SERVER_OPTIONS.port),
    storeUrl: storeOf(flags, stored).storeUrl,
  });
  const { env, localData } = placement;
  await runServerStart(
    flags,
    invocation.io,
    {
      async onListening({ url, createdAdminKey }) {
        const config = await openConfig({ env: invocation.env });
        const apiKey = createdAdminKey ?? placement.keptKey;
        await config.feedFromServer(env, { baseUrl: url, localData, ...(apiKey ? { apiKey } : {}) });
        if (createdAdminKey && invocation.opts.detachedChild) {
          // This output is a log file: the key is shown by the command that started the server (server-detached.ts), not here.
          note(`${NEW_ADMIN_KEY} ${maskKey(createdAdminKey)}, saved for environment "${env}" in the pla config`);
        } else if (createdAdminKey) {
          note('');
          for (const line of newAdminKeyLines(createdAdminKey, env)) note(line);
          note('');
        }
        note(`pla server: environment ${env} points at this server${env === 'local' ? '' : ` (pla -e ${env} …)`}`);
        if (!apiKey) {
          const recovery = localData.startsWith('postgres')
            ? `pla server keys create -e ${env} --name admin --api-key <a key that can administer keys>`
            : `pla server keys create --data ${localData} -e ${env} --name admin (with the server stopped)`;
          note(`pla server: environment ${env} has no key for this server; make one with ${recovery}`);
        }
      },
    },
    stored,
  );
}

/**
 * `pla server keys create --data DIR`: a new key (admin unless `--permissions`)
 * written straight into a stopped server's data folder; saved for the environment
 * that folder feeds (or `-e`) when that environment holds no key for other data.
 */
async function createKeyOffline(invocation: Invocation<[], { name: string; permissions?: string[]; data: string }>): Promise<void> {
  const { createKeyOffline: create } = await import('../../server/offline-keys.js');
  const { localDataOf } = await import('../server-environment.js');
  const { openConfig } = await import('../../config/index.js');
  const { data, name, permissions, env: chosen } = invocation.opts;
  const localData = localDataOf(data, undefined);
  const config = await openConfig({ env: invocation.env });
  const fed = Object.entries(config.list()).find(([, stored]) => stored.localData === localData)?.[0];
  const env = chosen ?? fed ?? 'local';
  const { secret, key } = await create({ dataDir: data, name, env, permissions: permissions ?? ['*'] });
  invocation.io.stdout.write(`${secret}\n`);
  const note = (line: string): void => void invocation.io.stderr.write(`${line}\n`);
  note(`key ${key.name} (id ${key.id}, ${key.permissions.join(',')}) created in ${localData}; store it now, it cannot be shown again`);
  const stored = config.get(env);
  if (stored.apiKey && stored.localData !== localData) {
    note(`not saved: environment ${env} holds a key for ${stored.localData ?? 'another service'}; use it with PLA_API_KEY or pla config set-key`);
    return;
  }
  await config.setKey(env, secret);
  note(`saved for environment ${env}`);
}

async function admin(ctx: CommandContext, method: string, path: string, options: { body?: unknown; query?: Record<string, string> } = {}) {
  const result = await (await ctx.client()).raw(method, path, { ...options, signal: ctx.signal });
  const envelope = result.data as { message?: string; data?: unknown } | undefined;
  return { message: envelope?.message, data: envelope?.data, body: result.data };
}

export function createKey(invocation: Invocation<[], { name: string; permissions?: string[]; data?: string }>): Promise<void> {
  const { data } = invocation.opts;
  if (data !== undefined) return createKeyOffline({ ...invocation, opts: { ...invocation.opts, data } });
  return withContext(invocation, async (ctx) => {
    const { name, permissions } = ctx.opts;
    const keyEnv = (await ctx.connection()).env;
    const body = { name, ...(keyEnv ? { env: keyEnv } : {}), ...(permissions ? { permissions } : {}) };
    const { data, message } = await admin(ctx, 'POST', '/_admin/keys', { body });
    const created = data as { secret: string; id: number };
    // The secret is the command's output (stdout), shown this once; the rest is for humans.
    ctx.io.stdout.write(`${created.secret}\n`);
    ctx.note(`${message ?? 'key created'} (id ${created.id}); store it now, it cannot be shown again`);
  });
}

export function listKeys(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { data } = await admin(ctx, 'GET', '/_admin/keys');
    await renderRows(
      (data as Array<Record<string, unknown>>).map((k) => ({ ...k, permissions: (k.permissions as string[]).join(',') })),
      ctx.output,
    );
  });
}

export function revokeKey(invocation: Invocation<[id: string]>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [id] = ctx.args;
    if (parseRecordId(id) === undefined) throw new UsageError(`key id must be a number, got ${id}`, { hint: 'see the ids with `pla server keys list`' });
    const { message, data } = await admin(ctx, 'DELETE', `/_admin/keys/${id}`);
    await renderRecord(data, ctx.output);
    ctx.note(message ?? 'revoked');
  });
}

export function health(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { body } = await admin(ctx, 'GET', '/_admin/health');
    await renderRecord(body, ctx.output);
  });
}

export function requestLog(invocation: Invocation<[], { limit?: string; follow?: boolean }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { limit, follow } = ctx.opts;
    if (follow) return followLog(ctx);
    const { data } = await admin(ctx, 'GET', '/_admin/requests', limit ? { query: { limit } } : {});
    await renderRows(data as unknown[], ctx.output);
  });
}

/** How often `server log --follow` asks the server for requests it has not shown. */
const FOLLOW_EVERY_MS = 1000;

/**
 * `server log --follow`: the requests as they come, row by row, until Ctrl-C (as
 * `docker logs -f`). Each poll reads the server's recent requests and writes those
 * after the last one written; its own polls are left out.
 */
async function followLog(ctx: CommandContext): Promise<void> {
  const [{ createRowWriter }, { asRow }, { setTimeout: sleep }] = await Promise.all([
    import('../../io/output/index.js'),
    import('../../io/output/fields.js'),
    import('node:timers/promises'),
  ]);
  const table = ctx.output.format === 'table';
  const writer = await createRowWriter(ctx.output);
  let shown: string[] = [];
  try {
    for (;;) {
      const { data } = await admin(ctx, 'GET', '/_admin/requests', { query: { limit: String(REQUEST_LOG_LIMITS.most) } });
      const entries = (Array.isArray(data) ? data : []).filter((entry) => !String(asRow(entry).path).startsWith('/_admin/requests'));
      const texts = entries.map((entry) => JSON.stringify(entry));
      // The entries after the last one shown (the log is oldest first and keeps the newest).
      const last = shown.at(-1);
      const from = last === undefined ? 0 : texts.lastIndexOf(last) + 1;
      for (const entry of entries.slice(from)) {
        const row = asRow(entry);
        // A table is sized over all its rows, so it waits for the end: following, each request is its own line instead.
        if (table) ctx.output.stdout.write(`${String(row.at)}  ${String(row.method)} ${String(row.path)} ${String(row.status)} ${String(row.ms)} ms\n`);
        else await writer.write(row);
      }
      shown = texts;
      await sleep(FOLLOW_EVERY_MS, undefined, { signal: ctx.signal });
    }
  } finally {
    await writer.end();
  }
}

export function reset(invocation: Invocation<[], { yes?: boolean }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    await confirmDestructive(ctx, 'Delete all data of the local server', { dryRun: false });
    const { message } = await admin(ctx, 'POST', '/_admin/reset');
    ctx.note(message ?? 'reset');
  });
}
