/**
 * `pla config …`: environments, base URLs, keys, proxies and CA files. A key is
 * never shown whole, a proxy password never at all. Every write goes through the
 * store's lock (src/config/conf-store.ts).
 */
import { resolve } from 'node:path';
import { text } from 'node:stream/consumers';
import { UsageError } from '../../errors.js';
import { type ConfigExport, type ConfigStore, type EnvironmentConfig, maskKey, resolveConnection } from '../../config/index.js';
import { readCaFile } from '../../config/ca-file.js';
import { hasPassword, maskUrl, withoutPassword } from '../../contract/secrets.js';
import { wireText } from '../../contract/wire-profile.js';
import { renderRows } from '../../io/output/index.js';
import { writeOut } from '../../io/output/write-out.js';
import type { IOStreams } from '../../io/streams.js';
import { type CommandContext, withContext } from '../context.js';
import type { Environment, Invocation } from '../invocation.js';

/** The environment a config command changes: `--env`, `PLA_ENV`, else the current one. */
export async function targetEnv(ctx: CommandContext): Promise<string> {
  return ctx.opts.env || ctx.env.PLA_ENV || (await ctx.config()).currentEnv();
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
    await (await ctx.config('write')).setKey(env, key);
    ctx.note(`saved key ${maskKey(key.trim())} for ${env}`);
  });
}

/** `config set-url <url>`: stores the base URL of the target environment. */
export function setUrl(invocation: Invocation<[url: string]>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = await targetEnv(ctx);
    const config = await ctx.config('write');
    await config.setUrl(env, ctx.args[0]);
    ctx.note(`${env} now uses ${config.get(env).baseUrl}`);
  });
}

/** The value argument of a setter that also takes `--unset`: exactly one of the two. */
type UnsetOption = { unset?: boolean };

/** What a setter taking `--unset` is given: the value, or none with `--unset`. */
type SetterInvocation = Invocation<[value: string | undefined], UnsetOption>;

function valueOrUnset(ctx: CommandContext<UnsetOption, [value: string | undefined]>, what: string, example: string): string | undefined {
  const [value] = ctx.args;
  if (ctx.opts.unset && value !== undefined) throw new UsageError(`give either a ${what} or --unset, not both`);
  if (!ctx.opts.unset && value === undefined) throw new UsageError(`no ${what} given`, { hint: `e.g. ${example}, or --unset to remove it` });
  return value;
}

/** `config set-proxy <url>|--unset`: the target environment's forward proxy. */
export function setProxy(invocation: SetterInvocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = await targetEnv(ctx);
    const proxy = valueOrUnset(ctx, 'proxy URL', 'pla config set-proxy http://proxy.corp.example:3128');
    await (await ctx.config('write')).setProxy(env, proxy);
    ctx.note(proxy === undefined ? `${env} no longer has a proxy of its own (HTTPS_PROXY/HTTP_PROXY apply)` : `${env} now goes through ${maskUrl(proxy)}`);
  });
}

/** `config set-ca <file>|--unset`: the target environment's extra trusted CAs. */
export function setCa(invocation: SetterInvocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = await targetEnv(ctx);
    const file = valueOrUnset(ctx, 'CA file', 'pla config set-ca ./corp-root.pem');
    const path = file === undefined ? undefined : resolve(file);
    // Checked now, so a wrong path fails here rather than at every later command.
    if (path !== undefined) await readCaFile(path, env);
    await (await ctx.config('write')).setCaFile(env, path);
    ctx.note(path === undefined ? `${env} trusts only the usual CAs again` : `${env} now also trusts the CAs in ${path}`);
  });
}

/**
 * `config set-store <url>|--unset`: the PostgreSQL store `pla server start|migrate`
 * use when neither `--store` nor `PLA_STORE_URL` names one. One per machine, not per
 * environment: it says where this machine's own server keeps its data.
 */
export function setStore(invocation: SetterInvocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const url = valueOrUnset(ctx, 'store URL', 'pla config set-store postgres://pla:secret@db.internal:5432/pla');
    await (await ctx.config('write')).setStore(url);
    ctx.note(
      url === undefined
        ? 'pla server now keeps its data in the data folder (JSON-file store) unless --store or PLA_STORE_URL says otherwise'
        : `pla server now uses the PostgreSQL store at ${maskUrl(url)} unless --store or PLA_STORE_URL says otherwise`,
    );
  });
}

/** The store `pla server start` would use (without flags) and where that comes from, password masked. */
function serverStoreLine(config: ConfigStore, env: Environment): string {
  const fromEnv = env.PLA_STORE_URL;
  if (fromEnv) return `server store: ${maskUrl(fromEnv)} (PLA_STORE_URL)`;
  const stored = config.server().store;
  return stored
    ? `server store: ${maskUrl(stored)} (config)`
    : 'server store: JSON-file store in the data folder (default; pla config set-store names a PostgreSQL one)';
}

/** `config use <env>`: makes an environment the current one. */
export function use(invocation: Invocation<[env: string]>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [env] = ctx.args;
    await (await ctx.config('write')).use(env);
    ctx.note(`now using ${env}`);
  });
}

/** `config remove <env>`: forgets what an environment stores. */
export function remove(invocation: Invocation<[env: string]>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [env] = ctx.args;
    const config = await ctx.config('write');
    const wasCurrent = config.currentEnv() === env;
    const { protectionOf } = await import('../../config/protection.js');
    const wasProtected = protectionOf(env, config.get(env));
    await config.remove(env);
    // Protection goes with the environment: say so, since adding it again does not bring it back (production's default does).
    const isProtectedNow = protectionOf(env, {});
    const protection =
      wasProtected && !isProtectedNow
        ? `; ${env} was protected: added again, it will not be (pla config protect ${env})`
        : !wasProtected && isProtectedNow
          ? `; ${env} is protected again, by default`
          : '';
    ctx.note(`removed ${env}${protection}${wasCurrent ? '; now using local' : ''}`);
  });
}

/** `config rename <old> <new>`. */
export function rename(invocation: Invocation<[from: string, to: string]>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [from, to] = ctx.args;
    await (await ctx.config('write')).rename(from, to);
    ctx.note(`renamed ${from} to ${to}`);
  });
}

/** `config path`: the config file's path, on stdout. */
export function path(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    await writeOut(ctx.io.stdout, `${(await ctx.config()).path}\n`);
  });
}

/** Every environment with its effective base URL, masked key and proxy, and where each comes from, and whether it is protected. */
export function show(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [config, { isProtected }] = await Promise.all([ctx.config(), import('../../runs/protected-envs.js')]);
    const current = await targetEnv(ctx);
    const rows = Object.entries(config.list()).map(([env, stored]) => {
      const row = {
        env,
        current: env === current,
        protected: isProtected(config, env),
        baseUrl: stored.baseUrl ?? '',
        baseUrlSource: stored.baseUrl ? 'config' : '',
        apiKey: '',
        apiKeySource: '',
        proxy: stored.proxy ? maskUrl(stored.proxy) : '',
        caFile: stored.caFile ?? '',
        wire: wireText(stored.wire),
        // The data of the local server that feeds it (pla server start), if one does.
        localData: stored.localData ?? '',
      };
      try {
        const conn = resolveConnection({ env, baseUrl: ctx.opts.baseUrl, apiKey: ctx.opts.apiKey }, config, ctx.env);
        Object.assign(row, { baseUrl: conn.baseUrl, baseUrlSource: conn.baseUrlSource });
        if (conn.apiKey) Object.assign(row, { apiKey: maskKey(conn.apiKey), apiKeySource: conn.apiKeySource });
      } catch {
        // No base URL anywhere for this environment: show what is stored.
        if (stored.apiKey) Object.assign(row, { apiKey: maskKey(stored.apiKey), apiKeySource: 'config' });
      }
      return row;
    });
    await renderRows(rows, ctx.output);
    ctx.note(serverStoreLine(config, ctx.env));
    ctx.note(`config file: ${config.path}`);
  });
}

/** Asks before API keys are written out in plain text; `--yes` answers for scripts. */
async function confirmKeysInExport(ctx: CommandContext<{ yes?: boolean }>, count: number): Promise<void> {
  if (ctx.opts.yes) return;
  const question = `The export will hold ${count} secret${count === 1 ? '' : 's'} (API keys, proxy and store passwords) in plain text. Go ahead?`;
  if (!ctx.io.canPrompt()) {
    throw new UsageError('refusing to export secrets without confirmation: stdin is not a terminal', { hint: 'pass --yes with --with-keys' });
  }
  const { confirm } = await import('../../io/prompt.js');
  if (!(await confirm(question, { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal }))) {
    throw new UsageError('not confirmed; nothing was exported');
  }
}

/** `config export [--with-keys] [--out FILE]`: the stored environments as JSON on stdout, or in a private file. */
export function exportConfig(invocation: Invocation<[], { withKeys?: boolean; yes?: boolean; out?: string }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [config, { isProtected }] = await Promise.all([ctx.config(), import('../../runs/protected-envs.js')]);
    const withKeys = ctx.opts.withKeys === true;
    // Names are data: a hand-written `__proto__` is exported as an environment, not taken for the object's prototype.
    const exported: Array<[string, EnvironmentConfig]> = [];
    // Secrets: API keys, proxy and store passwords. Left out (a URL keeps its user name) unless --with-keys.
    let secrets = 0;
    for (const [env, stored] of Object.entries(config.list())) {
      // Protection as it applies here (production's default included), so the file says it whatever the other side's defaults.
      const { apiKey, protected: flag, ...fields } = stored;
      const protectedHere = isProtected(config, env);
      const rest: EnvironmentConfig = protectedHere || flag === false ? { ...fields, protected: protectedHere } : fields;
      if (apiKey) secrets += 1;
      if (rest.proxy && hasPassword(rest.proxy)) {
        secrets += 1;
        if (!withKeys) rest.proxy = withoutPassword(rest.proxy);
      }
      if (Object.keys(rest).length === 0 && !(withKeys && apiKey)) continue;
      exported.push([env, withKeys && apiKey ? { ...rest, apiKey } : rest]);
    }
    const environments: ConfigExport['environments'] = Object.fromEntries(exported);
    let { store } = config.server();
    if (store && hasPassword(store)) {
      secrets += 1;
      if (!withKeys) store = withoutPassword(store);
    }
    if (withKeys && secrets > 0) await confirmKeysInExport(ctx, secrets);
    const data: ConfigExport = { currentEnv: config.currentEnv(), environments, ...(store ? { server: { store } } : {}) };
    const json = `${JSON.stringify(data, null, 2)}\n`;
    // A file of keys is the owner's alone (0600), and never written through a link someone left at its name.
    if (ctx.opts.out !== undefined) await (await import('../../io/private-files.js')).writePrivateFile(ctx.opts.out, json, { what: 'export file' });
    else await writeOut(ctx.io.stdout, json);
    if (!withKeys && secrets > 0)
      ctx.note(`left out ${secrets} secret${secrets === 1 ? '' : 's'} (API keys, proxy and store passwords); --with-keys includes them`);
  });
}

/** `config import <file>|-`: merges an export in (fields given replace those stored). */
export function importConfig(invocation: Invocation<[file: string]>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [source] = ctx.args;
    const raw =
      source === '-'
        ? await text(ctx.io.stdin)
        : await (await import('node:fs/promises')).readFile(source, 'utf8').catch((error: NodeJS.ErrnoException) => {
            throw new UsageError(`cannot read ${source}: ${error.code ?? error.message}`);
          });
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch (error) {
      throw new UsageError(`${source} is not JSON: ${(error as Error).message}`, { hint: 'give a file written by `pla config export`' });
    }
    const shape = data as Partial<ConfigExport> | null;
    if (
      typeof shape !== 'object' ||
      shape === null ||
      typeof shape.environments !== 'object' ||
      shape.environments === null ||
      Array.isArray(shape.environments)
    ) {
      throw new UsageError(`${source} has no "environments" object`, { hint: 'give a file written by `pla config export`' });
    }
    if (shape.currentEnv !== undefined && typeof shape.currentEnv !== 'string') throw new UsageError('"currentEnv" must be a string');
    const [config, { isProtected }] = await Promise.all([ctx.config('write'), import('../../runs/protected-envs.js')]);
    // An import adds protection but never takes it away: these stay protected whatever the file says.
    const keptProtected = Object.entries(shape.environments)
      .filter(([env, incoming]) => (incoming as { protected?: unknown } | null)?.protected === false && config.isKnown(env) && isProtected(config, env))
      .map(([env]) => env);
    await config.importAll({
      environments: shape.environments,
      ...(shape.currentEnv ? { currentEnv: shape.currentEnv } : {}),
      ...(shape.server !== undefined ? { server: shape.server } : {}),
    });
    const names = Object.keys(shape.environments);
    ctx.note(`imported ${names.length} environment${names.length === 1 ? '' : 's'}${names.length ? `: ${names.join(', ')}` : ''}`);
    for (const env of keptProtected) {
      ctx.note(`kept ${env} protected: the file has it unprotected, and an import only ever adds protection (pla config unprotect ${env} if that is meant)`);
    }
  });
}

/** `config protect ENV` / `config unprotect ENV`: the flag kept with the environment in config.json. */
export function protect(invocation: Invocation<[env: string]>): Promise<void> {
  return setProtection(invocation, true);
}

/** `config unprotect ENV`. */
export function unprotect(invocation: Invocation<[env: string]>): Promise<void> {
  return setProtection(invocation, false);
}

function setProtection(invocation: Invocation<[env: string]>, on: boolean): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [env] = ctx.args;
    const [config, { protectedEnvironments }] = await Promise.all([ctx.config('write'), import('../../runs/protected-envs.js')]);
    await config.setProtected(env, on);
    const list = protectedEnvironments(config);
    ctx.note(`${env} is ${on ? 'now protected' : 'no longer protected'}; protected: ${list.length > 0 ? list.join(', ') : 'none'}`);
  });
}
