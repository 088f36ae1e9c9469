/**
 * Paged reads (list, search, notification lists): one page with a footer on a
 * terminal, or with `--all` / `--max-items` every page streamed row by row.
 */
import type { CallOptions, PageRequest } from '../../client/types.js';
import { asRow } from '../../io/output/fields.js';
import { createRowWriter } from '../../io/output/index.js';
import { startSpinner } from '../../io/output/spinner.js';
import { writeLine } from '../../io/streams.js';
import type { CommandContext } from '../context.js';
import type { OperationId } from '../../contract/operations.js';

/** `--page`, `--size`, `--sort`, `--all`, `--max-items` (commands/options.ts). */
export interface PagingOptions {
  page?: number;
  size?: number;
  /** Absent on lists whose endpoint takes no sort. */
  sort?: string[];
  all?: boolean;
  maxItems?: number;
}

function pagingOf(ctx: CommandContext<PagingOptions>): PageRequest {
  const { page, size, sort } = ctx.opts;
  return { page, size, sort: sort && sort.length > 0 ? sort : undefined };
}

/** Lists a paged operation: one page (`--page`, `--size`, `--sort`), or every page with `--all`/`--max-items`. */
export async function listPaged(ctx: CommandContext<PagingOptions>, operationId: OperationId, call: Omit<CallOptions, 'paging'> = {}): Promise<void> {
  const client = await ctx.client();
  const options = { ...call, paging: pagingOf(ctx), signal: ctx.signal };
  const { maxItems } = ctx.opts;
  const writer = await createRowWriter(ctx.output);

  if (ctx.opts.all || maxItems !== undefined) {
    for await (const page of client.pages(operationId, { ...options, maxItems })) {
      for (const item of page.items) await writer.write(asRow(item));
    }
    await writer.end();
    return;
  }

  const spinner = await startSpinner('loading…', ctx.interactive, ctx.io.stderr);
  const page = await client.page(operationId, options).finally(() => spinner.stop());
  for (const item of page.items) await writer.write(asRow(item));
  await writer.end();
  if (ctx.interactive && !ctx.output.quiet) {
    const of = page.totalPages === undefined ? '' : ` of ${page.totalPages}`;
    const total = page.totalElements === undefined ? `${page.items.length} shown` : `${page.totalElements} records`;
    const more = page.last ? '' : `; --page ${page.number + 1} for more, --all for everything`;
    writeLine(ctx.io, `page ${page.number}${of}, ${total}${more}`);
  }
}
