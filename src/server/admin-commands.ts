/**
 * `pla server keys|health|log|reset`: calls to the running local server's
 * `/_admin` endpoints through the ordinary client. They always talk to
 * environment `local` (which `pla server start` keeps pointed at the server, with
 * its admin key); `--base-url` and `--api-key` still override.
 */
import { parseRecordId } from '../contract/ids.js';
import { UsageError } from '../errors.js';
import { renderRecord, renderRows } from '../io/output/index.js';
import { withContext, type CommandContext } from '../cli/context.js';
import type { Invocation } from '../cli/invocation.js';
import { confirmDestructive } from '../cli/handlers/safety.js';

/** The invocation aimed at env `local`; the `--env` given (if any) is the new key's environment. */
function onLocal(invocation: Invocation): Invocation {
  return { ...invocation, opts: { ...invocation.opts, keyEnv: invocation.opts.env, env: 'local' } };
}

async function admin(ctx: CommandContext, method: string, path: string, options: { body?: unknown; query?: Record<string, string> } = {}) {
  const result = await (await ctx.client()).raw(method, path, { ...options, signal: ctx.signal });
  const envelope = result.data as { message?: string; data?: unknown } | undefined;
  return { message: envelope?.message, data: envelope?.data, body: result.data };
}

export function createKey(invocation: Invocation): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    const { name, permissions, keyEnv } = ctx.opts as Record<string, unknown> as { name: string; permissions?: string[]; keyEnv?: string };
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

export function revokeKey(invocation: Invocation): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    const id = String(ctx.args[0]);
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

export function requestLog(invocation: Invocation): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    const limit = ctx.opts.limit as string | undefined;
    const { data } = await admin(ctx, 'GET', '/_admin/requests', limit ? { query: { limit } } : {});
    await renderRows(data as unknown[], ctx.output);
  });
}

export function reset(invocation: Invocation): Promise<void> {
  return withContext(onLocal(invocation), async (ctx) => {
    await confirmDestructive(ctx, 'Delete all data of the local server');
    const { message } = await admin(ctx, 'POST', '/_admin/reset');
    ctx.note(message ?? 'reset');
  });
}
