/**
 * `determinations decommission --modified-before DATE | --before-now`: the two
 * date-based decommissions, with confirmation and a `--dry-run` that lists the
 * records the cut-off would catch.
 */
import { isDecommissioned } from '../../contract/decommission.js';
import type { RecordId } from '../../contract/ids.js';
import { NOUNS, counted } from '../../contract/wording.js';
import { UsageError } from '../../errors.js';
import { MODIFIED_FIELDS } from '../../plan/record-diff.js';
import { renderRows } from '../../io/output/index.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { present } from './present.js';
import type { IdActionOptions, IdActionSpec } from './id-actions.js';
import { confirmDestructive, requestLine } from './safety.js';
import { planTarget, showPlan, wantsPlan } from './plan.js';
import { withReceipt } from './receipts.js';

/** A date (its midnight UTC) or a date-time, as ISO 8601. */
function parseCutoff(text: string): string {
  const value = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text;
  const time = Date.parse(value);
  if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}/.test(text)) {
    throw new UsageError(`not a date or date-time: ${text}`, { hint: 'use 2024-01-31 (midnight UTC) or 2024-01-31T12:00:00Z' });
  }
  return new Date(time).toISOString();
}

function modifiedAt(record: Record<string, unknown>): number | undefined {
  for (const field of MODIFIED_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  }
  return undefined;
}

/** The active records modified before the cut-off, read by pages; `dated` 0 when no record carries a date. */
async function recordsCaught(ctx: CommandContext, cutoff: string): Promise<{ caught: Record<string, unknown>[]; dated: number }> {
  const client = await ctx.client();
  const limit = Date.parse(cutoff);
  const caught: Record<string, unknown>[] = [];
  let dated = 0;
  for await (const page of client.pages('determinations.list', { paging: { size: 1000 }, signal: ctx.signal })) {
    for (const record of page.items) {
      const at = modifiedAt(record);
      if (at === undefined) continue;
      dated += 1;
      // The service picks only active records: the already decommissioned are not among the caught.
      if (at < limit && !isDecommissioned(record)) caught.push(record);
    }
  }
  return { caught, dated };
}

/**
 * `--plan` of a date decommission: the records the cut-off catches now, each to be
 * decommissioned by id, so `pla apply` sends exactly those (not the cut-off again).
 */
async function planByDate(ctx: CommandContext, cutoff: string): Promise<void> {
  const [{ probeWatermark }, { assemblePlan }] = await Promise.all([import('../../plan/current-state.js'), import('../../plan/make-plan.js')]);
  const target = await planTarget(ctx, 'determinations');
  const createdAt = new Date().toISOString();
  const watermark = await probeWatermark(target.client, 'determinations.list', ctx.signal);
  const { caught } = await recordsCaught(ctx, cutoff);
  const entries = caught.map((before) => ({ action: 'decommission' as const, id: before.id as RecordId, before }));
  await showPlan(ctx, assemblePlan(target, { decommission: 'determinations.decommissionBulk' }, entries, watermark, createdAt));
}

async function dryRun(ctx: CommandContext, cutoff: string, request: string): Promise<void> {
  const { caught, dated } = await recordsCaught(ctx, cutoff);
  const { env } = await ctx.connection();
  if (dated === 0) {
    ctx.note(`dry run: the records carry no modification date; would call ${request} on ${env}; nothing was changed`);
    return;
  }
  await renderRows(caught, ctx.output);
  ctx.note(`dry run: would decommission ${counted(caught.length, NOUNS.determinations)} modified before ${cutoff} on ${env} (${request}); nothing was changed`);
}

/** `--modified-before DATE`, `--before-now`: decommission by date instead of by ids. */
interface CutoffOptions {
  modifiedBefore?: string;
  beforeNow?: boolean;
}

type DecommissionInvocation = Invocation<[ids: string[]], IdActionOptions & CutoffOptions>;

/**
 * `determinations decommission`: by date with `--modified-before`/`--before-now`,
 * else by ids as every id verb (`spec`).
 */
export async function decommission(invocation: DecommissionInvocation, spec: IdActionSpec): Promise<void> {
  if (invocation.opts.modifiedBefore || invocation.opts.beforeNow) return decommissionByDate(invocation);
  const { runIdAction } = await import('./id-actions.js');
  return runIdAction(invocation, spec);
}

/** `decommission --modified-before DATE | --before-now`, or its `--dry-run`. */
function decommissionByDate(invocation: DecommissionInvocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { modifiedBefore, beforeNow } = ctx.opts;
    if (modifiedBefore && beforeNow) throw new UsageError('pass --modified-before or --before-now, not both');
    if (ctx.args[0].length > 0) throw new UsageError('pass ids or a date cut-off, not both');
    const cutoff = beforeNow ? new Date().toISOString() : parseCutoff(modifiedBefore ?? '');
    const operationId = beforeNow ? 'determinations.decommissionBeforeNow' : 'determinations.decommissionModifiedBefore';
    const params: Record<string, string> = beforeNow ? {} : { modified_before: cutoff };
    const request = requestLine(operationId, params);

    if (wantsPlan(ctx)) return planByDate(ctx, cutoff);
    if (ctx.opts.dryRun) return dryRun(ctx, cutoff, request);
    await confirmDestructive(ctx, `Decommission every determination modified before ${cutoff}`);
    const result = await withReceipt(ctx, 'determinations', async (receipt) => {
      // On a protected environment the records before are read first (by pages), for the receipt.
      const befores = receipt.protected ? new Map((await recordsCaught(ctx, cutoff)).caught.map((record) => [record.id, record])) : new Map();
      const answer = await (await ctx.client()).call(operationId, { params, signal: ctx.signal });
      const records = Array.isArray(answer.data) ? (answer.data as Record<string, unknown>[]) : [];
      receipt.writer.records(
        records.map((after) => ({
          action: 'decommission',
          id: after.id as RecordId,
          ...(befores.has(after.id) ? { before: befores.get(after.id) } : {}),
          after,
        })),
      );
      return answer;
    });
    await present(ctx, operationId, result, 'decommissioned');
    if (Array.isArray(result.data)) ctx.note(`decommissioned ${result.data.length} determination(s)`);
  });
}
