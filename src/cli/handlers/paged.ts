/**
 * Paged reads (list, search, notification lists): one page with a footer on a
 * terminal, or with `--all` / `--max-items` every page streamed row by row.
 */
import type { CallOptions, Page, PageRequest, PageWalker } from '../../client/types.js';
import { isObject } from '../../client/objects.js';
import { asRow } from '../../io/output/fields.js';
import { createRowWriter } from '../../io/output/index.js';
import { startSpinner } from '../../io/output/spinner.js';
import { writeLine } from '../../io/streams.js';
import type { CommandContext } from '../context.js';
import type { PagingOptions } from './paging-options.js';
import type { OperationId } from '../../contract/operations.js';
import { LIST_FILTERS, type FilterOptions } from '../../contract/list-filters.js';

export type { PagingOptions } from './paging-options.js';

function pagingOf(ctx: CommandContext<PagingOptions>): PageRequest {
  const { page, size, sort } = ctx.opts;
  return { page, size, sort: sort && sort.length > 0 ? sort : undefined };
}

/**
 * A list with its filter flags (src/contract/list-filters.ts): sent as the service's
 * search where it has one, else applied by pla to the pages it reads (filtered-list.ts). `declared` names the filters (the mobile listing shares
 * `notifications.list`'s).
 */
export async function listFiltered(
  ctx: CommandContext<PagingOptions & FilterOptions>,
  declared: OperationId,
  operationId: OperationId = declared,
  call: Omit<CallOptions, 'paging'> = {},
): Promise<void> {
  const spec = LIST_FILTERS[declared];
  if (!spec || !spec.filters.some((f) => ctx.opts[f.flag] !== undefined && ctx.opts[f.flag] !== false)) return listPaged(ctx, operationId, call);
  const { chosenFilters, listFilteredByPla } = await import('./filtered-list.js');
  const chosen = chosenFilters(ctx.opts, spec.filters, (line) => ctx.note(line));
  if (spec.search) return listPaged(ctx, spec.search, { ...call, body: Object.fromEntries(chosen.map((c) => [c.field, c.anyOf])) });
  return listFilteredByPla(ctx, operationId, call, chosen);
}

/**
 * Lists a paged operation: one page (`--page`, `--size`, `--sort`), or every page
 * with `--all`/`--max-items`.
 */
export async function listPaged(ctx: CommandContext<PagingOptions>, operationId: OperationId, call: Omit<CallOptions, 'paging'> = {}): Promise<void> {
  const client = await ctx.client();
  const options = { ...call, paging: pagingOf(ctx), signal: ctx.signal, allowDrift: ctx.opts.allowDrift === true, notice: ctx.warn };
  // A search's body is a filter the service applies: each page is checked against it before any of it is printed.
  const filter = isObject(call.body) && Object.keys(call.body).length > 0 ? call.body : undefined;
  const checked = filter ? (await import('../../confirm/filter-check.js')).checkFiltered : undefined;
  const check = (items: readonly unknown[]) => checked?.(items, filter as Record<string, unknown>, operationId);
  const { maxItems } = ctx.opts;
  // A read: an unknown --fields name is an error (nothing has happened yet).
  const writer = await createRowWriter({ ...ctx.output, strictFields: true });

  if (ctx.opts.all || maxItems !== undefined) {
    for await (const page of client.pages(operationId, { ...options, maxItems })) {
      check(page.items);
      for (const item of page.items) await writer.write(asRow(item));
    }
    await writer.end();
    return;
  }

  const spinner = await startSpinner('loading…', ctx.interactive, ctx.io.stderr);
  const walker = client.walk(operationId, options);
  const page = await walker.read(options.paging.page ?? 0).finally(() => spinner.stop());
  check(page.items);
  for (const item of page.items) await writer.write(asRow(item));
  await writer.end();
  if (ctx.interactive && !ctx.output.quiet) {
    const of = page.totalPages === undefined ? '' : ` of ${page.totalPages}`;
    const total = page.totalElements === undefined ? `${page.items.length} shown` : `${page.totalElements} records`;
    // Counted from 1 for a person; the flag stays zero-based, as the service's pages are.
    writeLine(ctx.io, `page ${page.number + 1}${of} (--page ${page.number}), ${total}${page.last ? '' : await nextHint(walker, page)}`);
  }
}

/**
 * The footer's way on after `page`: `--page N+1` where the service takes page
 * numbers; where it ignores them (it pages by links or cursors, and `--page N` is
 * refused), the records up to the next page's end read from the first
 * (`--max-items`); `--all` always. A probe that fails leaves `--all` alone.
 */
async function nextHint(walker: PageWalker<unknown>, page: Page<unknown>): Promise<string> {
  const numbered = await walker.numbered().catch(() => undefined);
  if (numbered === true) return `; next: --page ${page.number + 1}, everything: --all`;
  if (numbered === undefined) return '; everything: --all';
  // A page not the last is full: what it held is the page size the service keeps to (it may answer fewer than asked).
  const upTo = (page.number + 2) * page.items.length;
  return `; next: --max-items ${upTo} (pages by cursor, not --page), everything: --all`;
}
