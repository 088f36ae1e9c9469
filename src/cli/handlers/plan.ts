/**
 * `--plan`, `--plan-out FILE` and `--skip-unchanged` on the write commands, and the
 * apply step shared by `pla apply`, `--skip-unchanged` and `pla runs undo`.
 */
import { PartialFailureError } from '../../errors.js';
import type { ApplyResult } from '../../plan/apply.js';
import type { PlanTarget } from '../../plan/make-plan.js';
import type { Plan } from '../../plan/types.js';
import type { CommandContext } from '../context.js';
import type { BulkOptions } from './bulk.js';
import type { RunReceipt } from './receipts.js';
import { jsonText } from '../../json/json-text.js';

/** `--plan`, `--plan-out FILE` (commands/options.ts). */
export interface PlanOptions {
  plan?: boolean;
  planOut?: string;
}

/** Whether the command was asked for a plan instead of a run. */
export function wantsPlan(ctx: CommandContext<PlanOptions>): boolean {
  return ctx.opts.plan === true || typeof ctx.opts.planOut === 'string';
}

/** Where a plan for `resource` is read from, as the context connects. */
export async function planTarget(ctx: CommandContext, resource: string): Promise<PlanTarget> {
  const [{ maskedCommandLine }, connection, client] = await Promise.all([import('../../runs/command-line.js'), ctx.connection(), ctx.client()]);
  return {
    client,
    env: connection.env,
    baseUrl: connection.baseUrl,
    resource,
    command: maskedCommandLine(ctx.argv),
    signal: ctx.signal,
    progress: ctx.startProgress,
  };
}

/**
 * Shows a plan: the readable diff on a terminal (and with `-o table`), the whole
 * plan as JSON otherwise; saves it with `--plan-out`. Changes nothing.
 */
export async function showPlan(ctx: CommandContext<PlanOptions>, plan: Plan): Promise<void> {
  const [{ renderPlanText, planSummary }, { writeOut }] = await Promise.all([import('../../plan/render.js'), import('../../io/output/write-out.js')]);
  const format = ctx.output.format;
  if (format === 'json') await writeOut(ctx.output.stdout, `${jsonText(plan, 2)}\n`);
  else if (format === 'ndjson') await writeOut(ctx.output.stdout, plan.entries.map((entry) => `${jsonText(entry)}\n`).join(''));
  // A long plan is read through the pager on a terminal (`$PAGER`, else less -FRX).
  else await (await import('../../io/pager.js')).page(renderPlanText(plan, ctx.output.color), ctx.io);
  const out = ctx.opts.planOut;
  if (out !== undefined) {
    const { savePlan } = await import('../../plan/plan-file.js');
    await savePlan(out, plan);
    ctx.note(`saved the plan to ${out}; send exactly this with: pla apply ${out}`);
  }
  if (format !== 'table' || out !== undefined) ctx.note(`${planSummary(plan)} Nothing was changed.`);
}

/**
 * Sends a plan's changes through the bulk runner with the command's bulk options,
 * into `receipt`; prints a summary line per operation and throws the partial
 * failure (exit 9) when records were refused or in conflict.
 */
export async function applyWithSummary(ctx: CommandContext<BulkOptions>, plan: Plan, receipt: RunReceipt, checkConflicts: boolean): Promise<ApplyResult> {
  const [{ applyPlan }, { formatSummary }] = await Promise.all([import('../../plan/apply.js'), import('../../bulk/summary.js')]);
  const { opts } = ctx;
  const result = await applyPlan({
    client: await ctx.client({ finishInFlight: true }),
    plan,
    receipt: receipt.writer,
    checkConflicts,
    bulk: {
      batchSize: opts.batchSize,
      concurrency: opts.concurrency,
      rejectsPath: opts.rejects,
      checkpointPath: opts.checkpoint,
      runId: receipt.writer.run,
      signal: ctx.signal,
      progress: ctx.startProgress,
    },
  });
  for (const summary of result.summaries) ctx.note(formatSummary(summary));
  const unchanged = plan.counts.unchanged ?? 0;
  const refused = plan.counts.refused ?? 0;
  if (unchanged > 0 || refused > 0) ctx.note(`not sent: ${unchanged} unchanged, ${refused} the service would refuse (see the plan)`);
  const failed = result.summaries.reduce((sum, summary) => sum + summary.failed, 0);
  receipt.writer.count('failed', failed - result.conflicts);
  receipt.writer.count('conflicts', result.conflicts);
  if (result.conflicts > 0) {
    throw new PartialFailureError(`${result.conflicts} record(s) changed since the plan was made and were not written`, {
      hint: `make a new plan to see the changes${opts.rejects ? `; the conflicts are in ${opts.rejects}` : ' (--rejects FILE keeps the records in conflict)'}`,
    });
  }
  if (failed > 0) throw new PartialFailureError(`${failed} record(s) were refused`, { hint: opts.rejects ? `see ${opts.rejects}` : 'use --rejects <file> to keep the refused records with their errors' });
  return result;
}
