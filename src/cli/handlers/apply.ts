/**
 * `pla apply PLAN`: sends exactly a saved plan, on the environment and base URL it
 * was made for, checking before each batch that its records are as the plan saw
 * them. Destructive plans and protected environments confirm first.
 */
import { UsageError } from '../../errors.js';
import type { Plan } from '../../plan/types.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import type { BulkOptions } from './bulk.js';
import { applyWithSummary } from './plan.js';
import { environmentIsProtected, withEnvironmentLock, withReceipt } from './receipts.js';
import { confirmDestructive } from './safety.js';

const DESTRUCTIVE = ['delete', 'remove', 'decommission', 'cancel'] as const;

/** `http://h:1/` and `http://h:1` are the same base URL. */
function sameBaseUrl(a: string, b: string): boolean {
  const normal = (url: string) => url.replace(/\/+$/, '').toLowerCase();
  return normal(a) === normal(b);
}

/** Refuses a plan made for another environment or base URL (exit 2). */
async function checkTarget(ctx: CommandContext, plan: Plan): Promise<void> {
  const { env, baseUrl } = await ctx.connection();
  if (env !== plan.env || !sameBaseUrl(baseUrl, plan.baseUrl)) {
    throw new UsageError(`the plan was made for ${plan.env} (${plan.baseUrl}), not ${env} (${baseUrl}); nothing was sent`, {
      hint:
        env === plan.env ? `apply it with --base-url ${plan.baseUrl}, or make a new plan here` : `apply it with -e ${plan.env}, or make a new plan on ${env}`,
    });
  }
}

/**
 * The entries of `plan` an earlier apply already carried out (from the receipts),
 * under the environment's lock. A plan applied before is refused unless `--force`;
 * then what was done is skipped, and creates whose outcome no receipt holds are
 * not sent again (they may exist already): said, not guessed.
 */
async function alreadyApplied(ctx: CommandContext<{ force?: boolean }>, plan: Plan): Promise<Set<number>> {
  if (plan.id === undefined) return new Set();
  const [{ planProgress }, { runsDir }] = await Promise.all([import('../../runs/plan-progress.js'), import('../../runs/receipt-store.js')]);
  const progress = await planProgress(plan.id, runsDir(ctx.env));
  if (progress.runs.length === 0) return new Set();
  const runs = progress.runs.map((run) => `${run.header.run} (${run.end ? `exit ${run.end.exitCode}` : 'unfinished'})`).join(', ');
  if (ctx.opts.force !== true) {
    throw new UsageError(`this plan was applied already, by run ${runs}: ${progress.done.size} of its entries are done; nothing was sent`, {
      hint: 'pla apply --force sends only what is not yet done; or make a new plan (--plan-out) to see the records as they are now',
    });
  }
  const skip = new Set(progress.done);
  const unsure = [...progress.pending].filter((index) => plan.entries[index]?.action === 'create');
  for (const index of unsure) skip.add(index);
  ctx.warn(`this plan was applied already (run ${runs}): ${progress.done.size} entries done are skipped; sending only what is not yet done`);
  if (unsure.length > 0)
    ctx.warn(
      `${unsure.length} create(s) were sent by an earlier apply without a recorded answer: not sent again (they may exist); check them with pla runs show`,
    );
  return skip;
}

/** Refuses to undo `run` a second time (src/runs/undo-once.ts). */
export async function refuseUndoneAgain(ctx: CommandContext, run: string): Promise<void> {
  const [{ refuseSecondUndo }, { runsDir }] = await Promise.all([import('../../runs/undo-once.js'), import('../../runs/receipt-store.js')]);
  await refuseSecondUndo(run, runsDir(ctx.env));
}

/**
 * Shows the plan's summary, confirms when it deletes, removes, decommissions or
 * cancels, or when the environment is protected, then, holding the environment's
 * lock, refuses it if applied before (unless --force), or an undo of a run undone
 * before, and applies it with a
 * receipt that records the plan's identity.
 */
export async function confirmAndApply(
  ctx: CommandContext<{ yes?: boolean; force?: boolean } & BulkOptions>,
  plan: Plan,
  { shown = false }: { shown?: boolean } = {},
): Promise<void> {
  // An undo always asks: it is a second change made on the strength of a first.
  const { undoOf } = plan;
  const alwaysConfirm = undoOf !== undefined;
  const [{ planSummary, planPreview }, { shortDigest }] = await Promise.all([import('../../plan/render.js'), import('../../plan/plan-digest.js')]);
  const summary = planSummary(plan);
  const digest = shortDigest(plan);
  const sends = (plan.counts.create ?? 0) + (plan.counts.update ?? 0) + DESTRUCTIVE.reduce((sum, action) => sum + (plan.counts[action] ?? 0), 0);
  const notSent = (plan.counts.refused ?? 0) + (plan.counts.unreadable ?? 0);
  if (sends === 0 && notSent === 0) {
    ctx.note(`${summary} Nothing to send.`);
    return;
  }
  if (sends > 0 && (alwaysConfirm || DESTRUCTIVE.some((action) => (plan.counts[action] ?? 0) > 0) || (await environmentIsProtected(ctx)))) {
    // Unless the whole plan was shown already (`runs undo`), its first changes, counts and digest are shown above the question.
    const preview = shown ? undefined : planPreview(plan, ctx.output.color, digest);
    await confirmDestructive(ctx, `Apply this plan (${summary.replace(/^Plan: |\.$/g, '')})`, { dryRun: false, ...(preview ? { preview } : {}) });
  }
  await withEnvironmentLock(ctx, async () => {
    // An undo's plan, by `runs undo` or saved and applied later: a run is undone once.
    if (undoOf !== undefined) await refuseUndoneAgain(ctx, undoOf);
    const skip = await alreadyApplied(ctx, plan);
    const header = {
      ...(undoOf !== undefined ? { undoOf } : {}),
      ...(plan.id !== undefined ? { plan: plan.id } : {}),
      ...(digest !== undefined ? { planDigest: digest } : {}),
    };
    await withReceipt(ctx, plan.resource, (receipt) => applyWithSummary(ctx, plan, receipt, true, skip).then(() => undefined), header, true);
  });
}

/** `pla apply PLAN`. */
export function apply(invocation: Invocation<[plan: string], { yes?: boolean; force?: boolean } & BulkOptions>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { loadPlan } = await import('../../plan/plan-file.js');
    const [file] = ctx.args;
    const plan = await loadPlan(file);
    await checkTarget(ctx, plan);
    await confirmAndApply(ctx, plan);
  });
}
