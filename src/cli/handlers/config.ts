/** `pla config …`: environments, base URLs and keys. A key is never shown whole. */
import { text } from 'node:stream/consumers';
import { UsageError } from '../../errors.js';
import { maskKey, resolveConnection } from '../../config/index.js';
import { renderRows } from '../../io/output/index.js';
import { writeOut } from '../../io/output/write-out.js';
import type { IOStreams } from '../../io/streams.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../invocation.js';

/** The environment a config command changes: `--env`, `PLA_ENV`, else the current one. */
async function targetEnv(ctx: CommandContext): Promise<string> {
  return ctx.opts.env || process.env.PLA_ENV || (await ctx.config()).currentEnv();
}

/** Reads the key from stdin when piped, else from a prompt that does not echo. */
async function readKey(io: IOStreams): Promise<string> {
  if (!io.canPrompt()) return (await text(io.stdin)).trim();
  const { askHidden } = await import('../../io/prompt.js');
  return askHidden('API key (not shown): ', { input: io.stdin, output: io.stderr });
}

/** `config set-key`: stores the key of the target environment. */
export function setKey(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = await targetEnv(ctx);
    const key = await readKey(ctx.io);
    if (!key) throw new UsageError('no key given', { hint: 'pipe it in: pla config set-key --env qa < key.txt' });
    (await ctx.config('write')).setKey(env, key);
    ctx.note(`saved key ${maskKey(key)} for ${env}`);
  });
}

/** `config set-url <url>`: stores the base URL of the target environment. */
export function setUrl(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = await targetEnv(ctx);
    (await ctx.config('write')).setUrl(env, String(ctx.args[0]));
    ctx.note(`${env} now uses ${(await ctx.config('write')).get(env).baseUrl}`);
  });
}

/** `config use <env>`: makes an environment the current one. */
export function use(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = String(ctx.args[0]);
    (await ctx.config('write')).use(env);
    ctx.note(`now using ${env}`);
  });
}

/** `config path`: the config file's path, on stdout. */
export function path(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    await writeOut(ctx.io.stdout, `${(await ctx.config()).path}\n`);
  });
}

/** Every environment with its effective base URL and masked key, and where each comes from. */
export function show(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const config = await ctx.config();
    const current = await targetEnv(ctx);
    const rows = Object.entries(config.list()).map(([env, stored]) => {
      const row = { env, current: env === current, baseUrl: stored.baseUrl ?? '', baseUrlSource: stored.baseUrl ? 'config' : '', apiKey: '', apiKeySource: '' };
      try {
        const conn = resolveConnection({ env, baseUrl: ctx.opts.baseUrl, apiKey: ctx.opts.apiKey }, config);
        Object.assign(row, { baseUrl: conn.baseUrl, baseUrlSource: conn.baseUrlSource });
        if (conn.apiKey) Object.assign(row, { apiKey: maskKey(conn.apiKey), apiKeySource: conn.apiKeySource });
      } catch {
        // No base URL anywhere for this environment: show what is stored.
        if (stored.apiKey) Object.assign(row, { apiKey: maskKey(stored.apiKey), apiKeySource: 'config' });
      }
      return row;
    });
    await renderRows(rows, ctx.output);
    ctx.note(`config file: ${config.path}`);
  });
}

/** `config protect ENV` / `config unprotect ENV`. */
export function protect(invocation: Invocation, on: boolean): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = String(ctx.args[0]);
    const { setProtected } = await import('../../runs/protected-envs.js');
    const list = await setProtected(env, on);
    ctx.note(`${env} is ${on ? 'now protected' : 'no longer protected'}; protected: ${list.length > 0 ? list.join(', ') : 'none'}`);
  });
}
