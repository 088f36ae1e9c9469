/** Task verbs beyond the shared ones: search (filter body) and watch (poll until done). */
import { PartialFailureError } from '../../errors.js';
import { renderRows } from '../../io/output/index.js';
import { withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { collectIds, type IdOptions } from './ids.js';
import { readJsonObject } from './json-arg.js';
import { listPaged, type PagingOptions } from './paged.js';

/** `search [--filter JSON | --filter-file F]`: the filter is the body, paging in the query. */
export function search(invocation: Invocation<[], PagingOptions & { filter?: string; filterFile?: string }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { filter, filterFile } = ctx.opts;
    const body = (await readJsonObject({ inline: filter, file: filterFile, name: '--filter', stdin: ctx.io.stdin })) ?? {};
    await listPaged(ctx, 'tasks.search', { body });
  });
}

/** `watch <ids...>`: polls each task until it ends, then shows the final states. */
export function watch(invocation: Invocation<[ids: string[]], IdOptions & { interval?: number }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const ids = await collectIds(ctx, ctx.args[0]);
    const { watchTasks } = await import('../../bulk/watch.js');
    const results = await watchTasks(await ctx.client(), ids, {
      ...(ctx.opts.interval === undefined ? {} : { intervalMs: ctx.opts.interval * 1000 }),
      signal: ctx.signal,
      progress: { stream: ctx.io.stderr, isTTY: ctx.interactive },
    });
    await renderRows(results, ctx.output);
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0)
      throw new PartialFailureError(`${failed.length} of ${results.length} tasks did not complete: ${failed.map((r) => `${r.id} ${r.status}`).join(', ')}`);
  });
}
