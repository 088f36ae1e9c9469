/** Hands a stream of records or ids to the bulk runner with the command's bulk options. */
import type { Accepted } from '../../bulk/split.js';
import type { InputFormat, SourceItem } from '../../io/input/types.js';
import type { CommandContext } from '../context.js';

/** The input's format when known without reading it: `--format`, else the file's extension. */
async function inputFormat(opts: CommandContext['opts']): Promise<InputFormat | undefined> {
  const file = opts.file as string | undefined;
  if (opts.format) return opts.format as InputFormat;
  if (file === undefined || file === '-') return undefined;
  const { formatFromPath } = await import('../../io/input/index.js');
  return formatFromPath(file);
}

export interface BulkCommandOptions {
  /** The item count when known: the progress bar's share and ETA. */
  total?: number;
  /** Told what the service answered for each accepted request, in input order. */
  onAnswers?: (answers: Accepted[]) => Promise<void>;
}

/**
 * Runs `items` through the bulk operation, prints the summary line on stderr, and
 * throws the partial failure (exit 9) when some failed.
 */
export async function runBulkCommand(ctx: CommandContext, operationId: string, items: AsyncIterable<SourceItem>, options: BulkCommandOptions = {}): Promise<void> {
  const { runBulk, formatSummary, partialFailure } = await import('../../bulk/index.js');
  const { opts } = ctx;
  const bulk = {
    client: await ctx.client({ finishInFlight: true }),
    operationId,
    items,
    batchSize: opts.batchSize as number | undefined,
    concurrency: opts.concurrency as number | undefined,
    rejectsPath: opts.rejects as string | undefined,
    rejectsFormat: await inputFormat(opts),
    checkpointPath: opts.checkpoint as string | undefined,
    signal: ctx.signal,
    warn: (line: string) => ctx.warn(line),
    ...(options.total === undefined ? {} : { total: options.total }),
    ...(options.onAnswers ? { onAnswers: options.onAnswers } : {}),
  };
  // A bar only on a terminal with a width (a pty opened without a size reports 0).
  const progress = ctx.interactive && (ctx.io.terminalColumns ?? 0) > 0 ? await ctx.startProgress(options.total) : undefined;
  let summary: Awaited<ReturnType<typeof runBulk>>;
  try {
    summary = await runBulk(progress ? { ...bulk, progress } : bulk);
  } finally {
    // However the run ended, the bar goes: an error is then printed on a clean line.
    progress?.finish();
  }
  // An interrupted run does not get here: runBulk throws InterruptedError, with
  // the resume hint, once its batches in flight have landed.
  ctx.note(formatSummary(summary));
  const failure = partialFailure(summary);
  if (failure) throw failure;
}

/**
 * Runs a bulk command and prints what the service returned for each record, in
 * input order (see answers.ts); `one` when the input was a single record.
 */
export async function runBulkPrinting(ctx: CommandContext, operationId: string, items: AsyncIterable<SourceItem>, options: { total?: number; one?: boolean } = {}): Promise<void> {
  const { answeredRecords, createAnswerWriter } = await import('./answers.js');
  const writer = await createAnswerWriter(ctx, { one: options.one });
  try {
    await runBulkCommand(ctx, operationId, items, {
      ...(options.total === undefined ? {} : { total: options.total }),
      onAnswers: (answers) => writer.write(answers.flatMap(answeredRecords)),
    });
  } catch (error) {
    // What was answered before the failure is still shown; the failure is what is reported.
    await writer.end().catch(() => undefined);
    throw error;
  }
  await writer.end();
}
