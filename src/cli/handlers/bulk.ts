/** Hands a stream of records or ids to the bulk runner with the command's bulk options. */
import type { InputFormat, SourceItem } from '../../io/input/types.js';
import type { CommandContext } from '../context.js';
import type { OperationId } from '../../contract/operations.js';

/** The input's format when known without reading it: `--format`, else the file's extension. */
async function inputFormat(opts: CommandContext['opts']): Promise<InputFormat | undefined> {
  const file = opts.file as string | undefined;
  if (opts.format) return opts.format as InputFormat;
  if (file === undefined || file === '-') return undefined;
  const { formatFromPath } = await import('../../io/input/index.js');
  return formatFromPath(file);
}

/**
 * Runs `items` through the bulk operation, prints the summary line, and throws the
 * partial failure (exit 9) when some failed. `total` (when known) gives the
 * progress bar its share and ETA.
 */
export async function runBulkCommand(ctx: CommandContext, operationId: OperationId, items: AsyncIterable<SourceItem>, total?: number): Promise<void> {
  const { runBulk, formatSummary, partialFailure } = await import('../../bulk/index.js');
  const { opts } = ctx;
  const summary = await runBulk({
    client: await ctx.client({ finishInFlight: true }),
    operationId,
    items,
    batchSize: opts.batchSize as number | undefined,
    concurrency: opts.concurrency as number | undefined,
    rejectsPath: opts.rejects as string | undefined,
    rejectsFormat: await inputFormat(opts),
    checkpointPath: opts.checkpoint as string | undefined,
    signal: ctx.signal,
    progress: { stream: process.stderr, isTTY: ctx.interactive },
    ...(total === undefined ? {} : { total }),
  });
  // An interrupted run does not get here: runBulk throws InterruptedError, with
  // the resume hint, once its batches in flight have landed.
  ctx.note(formatSummary(summary));
  const failure = partialFailure(summary);
  if (failure) throw failure;
}
