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
  const [{ renderPlanText, planSummary, planWarnings }, { writeOut }] = await Promise.all([
    import('../../plan/render.js'),
    import('../../io/output/write-out.js'),
  ]);
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
  if (format !== 'table') for (const warning of planWarnings(plan)) ctx.warn(warning);
  if (format !== 'table' || out !== undefined) ctx.note(`${planSummary(plan)} Nothing was changed.`);
  const notSent = (plan.counts.refused ?? 0) + (plan.counts.unreadable ?? 0);
  if (notSent > 0) throw wouldRefuse(notSent, 'the plan');
}

/**
 * The exit 9 of a plan or dry run showing rows that would be refused or cannot
 * be read: `plan && apply` in a script stops there, as a run would have.
 */
export function wouldRefuse(rows: number, where: string): PartialFailureError {
  return new PartialFailureError(`${rows} row(s) would be refused or are unreadable (see ${where}); nothing was changed`, {
    hint: 'fix them in the input and plan again; the other rows go through with pla apply or the command without --plan',
  });
}

/**
 * Sends a plan's changes through the bulk runner with the command's bulk options,
 * into `receipt`; prints a summary line per operation and throws the partial
 * failure (exit 9) when records were refused or in conflict.
 */
export async function applyWithSummary(
  ctx: CommandContext<BulkOptions & { file?: string }>,
  plan: Plan,
  receipt: RunReceipt,
  checkConflicts: boolean,
  skip: ReadonlySet<number> = new Set(),
): Promise<ApplyResult> {
  const [{ applyPlan }, { formatSummary }, { defaultRejectsPath }] = await Promise.all([
    import('../../plan/apply.js'),
    import('../../bulk/summary.js'),
    import('../../bulk/rejects.js'),
  ]);
  const { opts } = ctx;
  // By default beside the checkpoint, else beside the input file (--skip-unchanged), else here.
  const inputFile = opts.file !== undefined && opts.file !== '-' ? opts.file : undefined;
  // A sheet's rejects are a sheet of its own form (a csv's, a workbook's); others ndjson.
  const rejectsPath = opts.rejects ?? defaultRejectsPath(receipt.writer.run, plan.input?.format ?? 'ndjson', opts.checkpoint ?? inputFile, ctx.cwd);
  const result = await applyPlan({
    client: await ctx.client({ finishInFlight: true }),
    plan,
    receipt: receipt.writer,
    checkConflicts,
    skip,
    bulk: {
      batchSize: opts.batchSize,
      concurrency: opts.concurrency,
      rejectsPath,
      runName: receipt.writer.run,
      folder: ctx.cwd,
      checkpointPath: opts.checkpoint,
      // --force: a checkpoint whose run finished starts a new one (apply's --force sends only what no receipt confirms).
      force: opts.force === true,
      runId: receipt.writer.run,
      signal: ctx.signal,
      progress: ctx.startProgress,
    },
  });
  for (const summary of result.summaries) ctx.note(formatSummary(summary));
  const notSent = await rejectPlanRefusals(plan, rejectsPath);
  const unchanged = plan.counts.unchanged ?? 0;
  // Rows repeating an earlier one exactly were sent once, as that one: said, as a run says them.
  const repeats = plan.counts.repeat ?? 0;
  const repeated = repeats > 0 ? `, ${repeats} repeating an earlier row exactly (sent once, as it)` : '';
  if (unchanged > 0 || notSent > 0 || repeats > 0)
    ctx.note(`not sent: ${unchanged} unchanged${repeated}, ${notSent} refused or unreadable (see the plan${notSent > 0 ? ` and ${rejectsPath}` : ''})`);
  const failed = result.summaries.reduce((sum, summary) => sum + summary.failed, 0);
  receipt.writer.count('failed', failed - result.conflicts);
  receipt.writer.count('conflicts', result.conflicts);
  receipt.writer.count('refused', notSent);
  if (repeats > 0) receipt.writer.count('repeats', repeats);
  if (result.conflicts > 0) {
    throw new PartialFailureError(`${result.conflicts} record(s) changed since the plan was made and were not written`, {
      hint: `make a new plan to see the changes; the conflicts are in ${rejectsPath}`,
    });
  }
  if (failed > 0) throw new PartialFailureError(`${failed} record(s) were refused`, { hint: `see ${rejectsPath}` });
  if (notSent > 0) {
    throw new PartialFailureError(`${notSent} input row(s) of the plan were refused or unreadable and not sent: see ${rejectsPath}`, {
      hint: `fix them there and feed the file back with ${plan.operations.create || plan.operations.update ? '--file' : '--ids-file'} ${rejectsPath} (the _error, _line and _raw fields are ignored)`,
    });
  }
  return result;
}

/**
 * The plan's entries that are not sent because they are refused or unreadable,
 * added to the rejects file after the run's own (each once, with its line and
 * why); how many.
 */
async function rejectPlanRefusals(plan: Plan, path: string): Promise<number> {
  const rows = plan.entries.filter((entry) => entry.action === 'refused' || entry.action === 'unreadable');
  if (rows.length === 0) return 0;
  const [{ RejectsFile }, { formatFromPath }] = await Promise.all([import('../../bulk/rejects.js'), import('../../io/input/format.js')]);
  const form = plan.input;
  const rejects = new RejectsFile(
    path,
    formatFromPath(path) ?? 'ndjson',
    'rejects file',
    () => (form?.format === 'csv' ? form.delimiter : undefined),
    () => form,
  );
  await rejects.open();
  for (const entry of rows) {
    const reason = entry.reason ?? entry.action;
    if (entry.action === 'unreadable') await rejects.writeUnreadable({ line: entry.line ?? 0, raw: entry.raw ?? '', message: reason });
    else
      await rejects.write([
        { value: entry.record ?? entry.id, error: reason, ...(entry.line !== undefined ? { line: entry.line } : {}), ...(entry.row ? { row: entry.row } : {}) },
      ]);
  }
  await rejects.close();
  return rows.length;
}
