/** `pla api METHOD PATH`: a raw call for what the commands do not cover; envelope kept. */
import { UsageError } from '../../errors.js';
import { renderRecord, renderRows } from '../../io/output/index.js';
import { withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { readJsonArg } from './json-arg.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

function queryOf(pairs: string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new UsageError(`--param takes key=value, got ${pair}`);
    query[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return query;
}

/** `pla api METHOD PATH [--data | --file] [--param k=v]…`: one raw call, its body shown as data. */
export function call(invocation: Invocation<[method: string, path: string], { data?: string; file?: string; param?: string[] }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [rawMethod, path] = ctx.args;
    const method = rawMethod.toUpperCase();
    if (!METHODS.includes(method)) throw new UsageError(`unknown method ${method}`, { hint: `use one of ${METHODS.join(', ')}` });
    if (!path.startsWith('/')) throw new UsageError('the path starts with / and is relative to the base URL, e.g. /api/topics/portfolio');
    const { data, file, param } = ctx.opts;
    const result = await (
      await ctx.client()
    ).raw(method, path, {
      body: await readJsonArg({ inline: data, file, name: '--data', stdin: ctx.io.stdin }),
      query: queryOf(param ?? []),
      signal: ctx.signal,
    });
    if (Array.isArray(result.data)) return renderRows(result.data, ctx.output);
    if (result.data !== undefined && result.data !== null && result.data !== '') return renderRecord(result.data, ctx.output);
    ctx.note(`${result.status} (no body)`);
  });
}
