/** Hands a stream of records or ids to the bulk runner with the command's bulk options. */
import type { SourceItem } from '../../io/input/types.js';
import { InterruptedError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** `total` (when known) gives the progress bar its share and ETA. */
export async function runBulkCommand(ctx: CommandContext, operationId: string, items: AsyncIterable<SourceItem>, total?: number): Promise<void> {
  const { runBulk, formatSummary, partialFailure } = await import('../../bulk/index.js');
  const { opts } = ctx;
  const summary = await runBulk({
    client: await ctx.client({ finishInFlight: true }),
    operationId,
    items,
    batchSize: opts.batchSize as number | undefined,
    concurrency: opts.concurrency as number | undefined,
    rejectsPath: opts.rejects as string | undefined,
    rejectsFormat: opts.format as 'json' | 'ndjson' | 'csv' | undefined,
    checkpointPath: opts.checkpoint as string | undefined,
    signal: ctx.signal,
    progress: { stream: process.stderr, isTTY: ctx.interactive },
    ...(total === undefined ? {} : { total }),
  });
  ctx.note(formatSummary(summary));
  if (summary.interrupted) throw new InterruptedError('interrupted', { hint: opts.checkpoint ? 'run the same command again to resume from the checkpoint' : undefined });
  const failure = partialFailure(summary);
  if (failure) throw failure;
}
