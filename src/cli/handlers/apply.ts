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
import { environmentIsProtected, withReceipt } from './receipts.js';
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
      hint: env === plan.env ? `apply it with --base-url ${plan.baseUrl}, or make a new plan here` : `apply it with -e ${plan.env}, or make a new plan on ${env}`,
    });
  }
}

/**
 * Shows the plan's summary, confirms when it deletes, removes, decommissions or
 * cancels, or when the environment is protected, then applies it with a receipt.
 */
export async function confirmAndApply(ctx: CommandContext<{ yes?: boolean } & BulkOptions>, plan: Plan, extra: { undoOf?: string } = {}): Promise<void> {
  // An undo always asks: it is a second change made on the strength of a first.
  const alwaysConfirm = extra.undoOf !== undefined;
  const { planSummary } = await import('../../plan/render.js');
  const summary = planSummary(plan);
  const sends = (plan.counts.create ?? 0) + (plan.counts.update ?? 0) + DESTRUCTIVE.reduce((sum, action) => sum + (plan.counts[action] ?? 0), 0);
  if (sends === 0) {
    ctx.note(`${summary} Nothing to send.`);
    return;
  }
  if (alwaysConfirm || DESTRUCTIVE.some((action) => (plan.counts[action] ?? 0) > 0) || (await environmentIsProtected(ctx))) {
    await confirmDestructive(ctx, `Apply this plan (${summary.replace(/^Plan: |\.$/g, '')})`, { dryRun: false });
  }
  await withReceipt(ctx, plan.resource, (receipt) => applyWithSummary(ctx, plan, receipt, true).then(() => undefined), extra);
}

/** `pla apply PLAN`. */
export function apply(invocation: Invocation<[plan: string], { yes?: boolean } & BulkOptions>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { loadPlan } = await import('../../plan/plan-file.js');
    const [file] = ctx.args;
    const plan = await loadPlan(file);
    await checkTarget(ctx, plan);
    await confirmAndApply(ctx, plan);
  });
}
