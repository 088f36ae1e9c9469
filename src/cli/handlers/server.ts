/**
 * `pla server …` on the CLI side. `start` runs the local server (src/server) and
 * keeps what the CLI needs of it in the pla config: the URL of environment
 * `local` and, on a first start, the admin key the server minted (the server
 * keeps only its hash and never touches the CLI's config). `keys|health|log|reset`
 * call the running server's `/_admin` endpoints through the ordinary client; they
 * always talk to environment `local`, and `--base-url` and `--api-key` still
 * override.
 */
import { parseRecordId } from '../../contract/ids.js';
import { UsageError } from '../../errors.js';
import { renderRecord, renderRows } from '../../io/output/index.js';
import type { StartFlags } from '../../server/start.js';
import { withContext, type CommandContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { confirmDestructive } from './safety.js';

/**
 * The store URL kept in the pla config (`pla config set-store`), read only when
 * neither `--store` nor `PLA_STORE_URL` gives one, as they outrank it.
 */
async function configuredStore(invocation: Invocation<[], { store?: string }>): Promise<string | undefined> {
  if (invocation.opts.store || process.env.PLA_STORE_URL) return undefined;
  const { openConfig } = await import('../../config/index.js');
  return (await openConfig({ readOnly: true })).server().store;
}

/** `pla server migrate`: the server's migrations, on the store the flags, environment or config name. */
export async function migrate(invocation: Invocation<[], { store?: string }>): Promise<void> {
  const { runServerMigrate } = await import('../../server/start.js');
  await runServerMigrate(invocation.opts, invocation.io, await configuredStore(invocation));
}

/** `pla server start`: runs the server until SIGINT/SIGTERM; once it listens, environment `local` points at it. */
export async function start(invocation: Invocation<[], StartFlags>): Promise<void> {
  const { runServerStart } = await import('../../server/start.js');
  const stored = await configuredStore(invocation);
  const note = (line: string): void => void invocation.io.stderr.write(`${line}\n`);
  await runServerStart(invocation.opts, invocation.io, {
    async onListening({ url, createdAdminKey }) {
      const { openConfig } = await import('../../config/index.js');
      const config = await openConfig();
      if (createdAdminKey) {
        await config.setKey('local', createdAdminKey);
        note('');
        note(`  New admin key: ${createdAdminKey}`);
        note('  It is shown only this once and saved for environment "local" in the pla config.');
        note('  Keep it somewhere safe if you need it elsewhere; the server keeps only its hash.');
        note('');
      }
      await config.setUrl('local', url);
    },
  }, stored);
}

/** The invocation aimed at env `local`; the `--env` given (if any) is the new key's environment. */
function onLocal<Args extends readonly unknown[], Opts extends object>(invocation: Invocation<Args, Opts>): Invocation<Args, Opts & { keyEnv?: string }> {
  return { ...invocation, opts: { ...invocation.opts, keyEnv: invocation.opts.env, env: 'local' } };
}

async function admin(ctx: CommandContext, method: string, path: string, options: { body?: unknown; query?: Record<string, string> } = {}) {
  const result = await (await ctx.client()).raw(method, path, { ...options, signal: ctx.signal });
  const envelope = result.data as { message?: string; data?: unknown } | undefined;
  return { message: envelope?.message, data: envelope?.data, body: result.data };
}

export function createKey(invocation: Invocation<[], { name: string; permissions?: string[] }>): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    const { name, permissions, keyEnv } = ctx.opts;
    const body = { name, ...(keyEnv ? { env: keyEnv } : {}), ...(permissions ? { permissions } : {}) };
    const { data, message } = await admin(ctx, 'POST', '/_admin/keys', { body });
    const created = data as { secret: string; id: number };
    // The secret is the command's output (stdout), shown this once; the rest is for humans.
    ctx.io.stdout.write(`${created.secret}\n`);
    ctx.note(`${message ?? 'key created'} (id ${created.id}); store it now, it cannot be shown again`);
  });
}

export function listKeys(invocation: Invocation): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    const { data } = await admin(ctx, 'GET', '/_admin/keys');
    await renderRows((data as Array<Record<string, unknown>>).map((k) => ({ ...k, permissions: (k.permissions as string[]).join(',') })), ctx.output);
  });
}

export function revokeKey(invocation: Invocation<[id: string]>): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    const [id] = ctx.args;
    if (parseRecordId(id) === undefined) throw new UsageError(`key id must be a number, got ${id}`, { hint: 'see the ids with `pla server keys list`' });
    const { message, data } = await admin(ctx, 'DELETE', `/_admin/keys/${id}`);
    await renderRecord(data, ctx.output);
    ctx.note(message ?? 'revoked');
  });
}

export function health(invocation: Invocation): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    const { body } = await admin(ctx, 'GET', '/_admin/health');
    await renderRecord(body, ctx.output);
  });
}

export function requestLog(invocation: Invocation<[], { limit?: string }>): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    const { limit } = ctx.opts;
    const { data } = await admin(ctx, 'GET', '/_admin/requests', limit ? { query: { limit } } : {});
    await renderRows(data as unknown[], ctx.output);
  });
}

export function reset(invocation: Invocation<[], { yes?: boolean }>): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    await confirmDestructive(ctx, 'Delete all data of the local server');
    const { message } = await admin(ctx, 'POST', '/_admin/reset');
    ctx.note(message ?? 'reset');
  });
}
