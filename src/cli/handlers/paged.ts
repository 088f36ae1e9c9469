/**
 * Paged reads (list, search, notification lists): one page with a footer on a
 * terminal, or with `--all` / `--max-items` every page streamed row by row.
 */
import type { CallOptions, PageRequest, WalkCallOptions } from '../../client/types.js';
import { isObject } from '../../client/objects.js';
import { asRow } from '../../io/output/fields.js';
import { createRowWriter } from '../../io/output/index.js';
import { startSpinner } from '../../io/output/spinner.js';
import { writeLine } from '../../io/streams.js';
import type { CommandContext } from '../context.js';
import type { OperationId } from '../../contract/operations.js';
import { fieldValue } from '../../io/output/fields.js';
import type { Row } from '../../io/output/types.js';
import { UsageError } from '../../errors.js';
import { LIST_FILTERS, type FilterOptions, type ListFilter } from '../../contract/list-filters.js';

/** `--page`, `--size`, `--sort`, `--all`, `--max-items` (commands/options.ts). */
export interface PagingOptions {
  page?: number;
  size?: number;
  /** Absent on lists whose endpoint takes no sort. */
  sort?: string[];
  all?: boolean;
  maxItems?: number;
  /** Records added or removed during `--all` are a warning, not exit 9. */
  allowDrift?: boolean;
}

function pagingOf(ctx: CommandContext<PagingOptions>): PageRequest {
  const { page, size, sort } = ctx.opts;
  return { page, size, sort: sort && sort.length > 0 ? sort : undefined };
}

/** A filter flag given on the command line: its field and the values that match. */
interface ChosenFilter {
  field: string;
  anyOf: unknown[];
}

function chosenFilters(opts: Readonly<FilterOptions>, filters: readonly ListFilter[]): ChosenFilter[] {
  const chosen = filters.flatMap((filter): ChosenFilter[] => {
    const given = opts[filter.flag];
    if (given === undefined || given === false) return [];
    if (given === true) return [{ field: filter.field, anyOf: [filter.equals] }];
    return [{ field: filter.field, anyOf: given.map((v) => (filter.values?.upper ? v.toUpperCase() : v)) }];
  });
  const twice = chosen.find((c, i) => chosen.findIndex((other) => other.field === c.field) !== i);
  if (twice) throw new UsageError(`two filters on ${twice.field} exclude each other`, { hint: 'give one of them' });
  return chosen;
}

/**
 * A list with its filter flags (src/contract/list-filters.ts): sent as the service's
 * search where it has one, else every page is read and only matching records are
 * printed, as they come. `declared` names the filters (the mobile listing shares
 * `notifications.list`'s).
 */
export async function listFiltered(
  ctx: CommandContext<PagingOptions & FilterOptions>,
  declared: OperationId,
  operationId: OperationId = declared,
  call: Omit<CallOptions, 'paging'> = {},
): Promise<void> {
  const spec = LIST_FILTERS[declared];
  const chosen = spec ? chosenFilters(ctx.opts, spec.filters) : [];
  if (chosen.length === 0) return listPaged(ctx, operationId, call);
  if (spec?.search) return listPaged(ctx, spec.search, { ...call, body: Object.fromEntries(chosen.map((c) => [c.field, c.anyOf])) });
  const keep = (row: Row) => chosen.every((c) => c.anyOf.includes(fieldValue(row, c.field)));
  return listPaged(ctx, operationId, call, keep);
}

/** Every page, only the rows `keep` takes, up to `--max-items` of those. */
async function listKeeping(ctx: CommandContext<PagingOptions>, operationId: OperationId, options: WalkCallOptions, keep: (row: Row) => boolean): Promise<void> {
  const client = await ctx.client();
  const { maxItems } = ctx.opts;
  const writer = await createRowWriter({ ...ctx.output, strictFields: true });
  let read = 0;
  let kept = 0;
  try {
    for await (const page of client.pages(operationId, options)) {
      for (const item of page.items) {
        read += 1;
        const row = asRow(item);
        if (!keep(row)) continue;
        kept += 1;
        await writer.write(row);
        if (maxItems !== undefined && kept >= maxItems) return;
      }
    }
  } finally {
    await writer.end();
    if (ctx.interactive && !ctx.output.quiet) writeLine(ctx.io, `${kept} of ${read} records read match (filtered as the pages came; every page is read)`);
  }
}

/**
 * Lists a paged operation: one page (`--page`, `--size`, `--sort`), or every page
 * with `--all`/`--max-items`; with `keep`, every page, filtered.
 */
export async function listPaged(
  ctx: CommandContext<PagingOptions>,
  operationId: OperationId,
  call: Omit<CallOptions, 'paging'> = {},
  keep?: (row: Row) => boolean,
): Promise<void> {
  const client = await ctx.client();
  const options = { ...call, paging: pagingOf(ctx), signal: ctx.signal, allowDrift: ctx.opts.allowDrift === true, notice: ctx.warn };
  if (keep) return listKeeping(ctx, operationId, options, keep);
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
  const page = await client.page(operationId, options).finally(() => spinner.stop());
  check(page.items);
  for (const item of page.items) await writer.write(asRow(item));
  await writer.end();
  if (ctx.interactive && !ctx.output.quiet) {
    const of = page.totalPages === undefined ? '' : ` of ${page.totalPages}`;
    const total = page.totalElements === undefined ? `${page.items.length} shown` : `${page.totalElements} records`;
    const more = page.last ? '' : `; --page ${page.number + 1} for more, --all for everything`;
    writeLine(ctx.io, `page ${page.number}${of}, ${total}${more}`);
  }
}
