/**
 * `pla runs list|show|prune|undo`: the receipts of the runs that changed
 * something, and undoing one through the same plan → confirm → apply.
 */
import { UsageError } from '../../errors.js';
import { renderRows } from '../../io/output/index.js';
import { writeOut } from '../../io/output/write-out.js';
import type { RecordLine, ReceiptLine, SendingLine } from '../../runs/types.js';
import type { RunSummary } from '../../runs/receipt-store.js';
import type { PlanEntry } from '../../plan/types.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { chosenEnv } from '../chosen-env.js';
import { confirmAndApply, refuseUndoneAgain } from './apply.js';
import type { BulkOptions } from './bulk.js';
import { type PlanOptions, planTarget, showPlan, wantsPlan } from './plan.js';
import type { RecordId } from '../../contract/ids.js';
import { jsonText } from '../../json/json-text.js';

function countsText(counts: Record<string, number> | undefined): string {
  if (!counts) return '';
  return Object.entries(counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
}

/** Input lines of batches the receipt names as sent with no answer recorded (a `sending` line without its `settled` one, or settled as unknown). */
function unsettled(lines: readonly ReceiptLine[]): number[] {
  const open = new Map<number, number[]>();
  const unknown: number[] = [];
  for (const line of lines) {
    if (line.type === 'sending')
      open.set(
        line.batch,
        line.items.map((item) => item.line),
      );
    else if (line.type === 'settled') {
      open.delete(line.batch);
      unknown.push(...(line.unknown ?? []));
    }
  }
  return [...[...open.values()].flat(), ...unknown].sort((a, b) => a - b);
}

/**
 * What a run sent without recording an answer, as undo entries it cannot take back:
 * the service may or may not have carried them out (listed, never guessed at).
 */
function unknownOutcomes(lines: readonly ReceiptLine[]): PlanEntry[] {
  const recorded = new Set(lines.flatMap((line) => (line.type === 'record' && line.line !== undefined ? [line.line] : [])));
  const items = new Map<number, SendingLine['items'][number]>();
  for (const line of lines) if (line.type === 'sending') for (const item of line.items) items.set(item.line, item);
  return unsettled(lines)
    .filter((line) => !recorded.has(line))
    .map((line) => {
      const id = items.get(line)?.id;
      const reason = 'sent without a recorded answer: the service may or may not have carried it out; check it';
      return typeof id === 'number' || typeof id === 'bigint' ? { action: 'irreversible', id, line, reason } : { action: 'irreversible', line, reason };
    });
}

/**
 * The run `id` names: `last` is the last run on the chosen environment (as `runs
 * list` shows them), anything else a run id or its start, on any environment.
 */
async function chosenRun(ctx: CommandContext, id: string): Promise<RunSummary> {
  const { findRun, listRuns, runsDir } = await import('../../runs/receipt-store.js');
  if (id !== 'last') return findRun(id, runsDir(ctx.env));
  const env = await chosenEnv(ctx);
  const runs = await listRuns(runsDir(ctx.env));
  const last = runs.filter((run) => run.header.env === env).at(-1);
  if (last) return last;
  const elsewhere = runs.at(-1)?.header.env;
  throw new UsageError(`no run recorded on ${env}`, {
    hint: elsewhere
      ? `the last run was on ${elsewhere}: pla runs show last -e ${elsewhere}; pla runs list --all-envs lists them all`
      : 'pla runs list --all-envs',
  });
}

/** `runs list`: one row per receipt, oldest first, of the chosen environment (every one with `--all-envs`). */
export function list(invocation: Invocation<[], { allEnvs?: boolean }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { readRunsFolder, runsDir } = await import('../../runs/receipt-store.js');
    const env = ctx.opts.allEnvs ? undefined : await chosenEnv(ctx);
    const { runs: every, damaged } = await readRunsFolder(runsDir(ctx.env));
    const runs = env === undefined ? every : every.filter((run) => run.header.env === env);
    // A receipt that cannot be read is listed (whatever its environment: it cannot be told), never passed over: what depends on it is refused.
    const rows = [
      ...runs.map(({ header, end, damaged: damage }) => ({
        run: header.run,
        startedAt: header.startedAt,
        env: header.env,
        user: header.user,
        command: header.command,
        exitCode: damage ? 'damaged' : end ? end.exitCode : 'unfinished',
        counts: damage ?? countsText(end?.counts),
        ...(header.undoOf ? { undoOf: header.undoOf } : {}),
      })),
      ...damaged.map((receipt) => ({ run: receipt.run, startedAt: '', env: '', user: '', command: '', exitCode: 'damaged', counts: receipt.reason })),
    ].sort((a, b) => a.run.localeCompare(b.run));
    await renderRows(rows, ctx.output);
    for (const receipt of [...damaged, ...runs.filter((run) => run.damaged)])
      ctx.warn(`damaged receipt ${receipt.path}: applying its plan again and undoing its run are refused until it is restored or moved out of the folder`);
    const hidden = every.length - runs.length;
    if (hidden > 0) ctx.note(`${hidden} run(s) on other environments not shown: --all-envs shows them`);
    else if (rows.length === 0) ctx.note(env === undefined ? 'no runs recorded yet' : `no runs recorded on ${env} yet`);
  });
}

/** `runs show ID`: the receipt; json an object, ndjson its lines as kept, csv and table one row per record. */
export function show(invocation: Invocation<[run: string]>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { receiptLines } = await import('../../runs/receipt-store.js');
    const run = await chosenRun(ctx, ctx.args[0]);
    const lines: ReceiptLine[] = [];
    for await (const line of receiptLines(run.path, 'it cannot be shown (look at the file itself)')) lines.push(line);
    const records = lines.filter((line): line is RecordLine => line.type === 'record');
    if (ctx.output.format === 'ndjson') return writeOut(ctx.output.stdout, lines.map((line) => `${jsonText(line)}\n`).join(''));
    if (ctx.output.format === 'json') {
      const end = lines.find((line) => line.type === 'end');
      return writeOut(ctx.output.stdout, `${jsonText({ ...run.header, records, end: end ?? null }, 2)}\n`);
    }
    const { header, end } = run;
    ctx.note(
      `run ${header.run} on ${header.env} (${header.baseUrl}) by ${header.user}, pla ${header.version}: ${header.command}${header.plan ? ` (plan ${header.plan})` : ''}`,
    );
    const inFlight = unsettled(lines);
    if (inFlight.length > 0) {
      ctx.note(
        `${inFlight.length} record(s) were sent without a recorded answer: the service may or may not have carried them out (input lines ${inFlight.join(', ')})`,
      );
    }
    ctx.note(
      `started ${header.startedAt}; ${end ? `ended ${end.endedAt}, exit ${end.exitCode}, ${countsText(end.counts)}` : 'never finished (the CLI was stopped or crashed): the records below were acknowledged'}`,
    );
    await renderRows(
      records.map((line) => ({ action: line.action, id: line.id ?? '', before: line.before ?? '', after: line.after ?? '' })),
      ctx.output,
    );
  });
}

/** `runs prune --older-than DAYS | --all`. */
export function prune(invocation: Invocation<[], { olderThan?: number; all?: boolean }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { olderThan, all } = ctx.opts;
    if (olderThan === undefined && !all) throw new UsageError('say which receipts to remove', { hint: 'pass --older-than DAYS, or --all' });
    if (olderThan !== undefined && all) throw new UsageError('pass --older-than or --all, not both');
    const { pruneRuns, runsDir } = await import('../../runs/receipt-store.js');
    const before = olderThan === undefined ? undefined : new Date(Date.now() - olderThan * 86_400_000);
    ctx.note(`removed ${await pruneRuns(before, runsDir(ctx.env))} receipt(s)`);
  });
}

/** `runs undo ID`: the inverse plan of a run; shown, confirmed and applied (with its own receipt). */
export function undo(invocation: Invocation<[run: string], { yes?: boolean } & PlanOptions & BulkOptions>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [{ receiptLines }, { idOfLine, inverseEntries, undoOperations, withinReach }, { probeWatermark, readCurrentState, stateOf }, { assemblePlan }] =
      await Promise.all([
        import('../../runs/receipt-store.js'),
        import('../../runs/undo.js'),
        import('../../plan/current-state.js'),
        import('../../plan/make-plan.js'),
      ]);
    const run = await chosenRun(ctx, ctx.args[0]);
    // Refused before anything is read or shown; checked again under the environment's lock, just before sending.
    await refuseUndoneAgain(ctx, run.header.run);
    const { env, baseUrl } = await ctx.connection();
    if (env !== run.header.env || baseUrl.replace(/\/+$/, '') !== run.header.baseUrl.replace(/\/+$/, '')) {
      throw new UsageError(`run ${run.header.run} changed ${run.header.env} (${run.header.baseUrl}), not ${env} (${baseUrl})`, {
        hint: `undo it with -e ${run.header.env}`,
      });
    }
    const lines: ReceiptLine[] = [];
    for await (const line of receiptLines(run.path, `what run ${run.header.run} did is not known in full: it is not undone`)) lines.push(line);
    const records = lines.filter((line): line is RecordLine => line.type === 'record');
    const resource = run.header.resource;
    const target = await planTarget(ctx, resource);
    const createdAt = new Date().toISOString();
    const source = stateOf(resource);
    const watermark = await probeWatermark(target.client, source.list, ctx.signal);
    const ids = records.map(idOfLine).filter((id): id is RecordId => id !== undefined);
    const current = await readCurrentState(target.client, source, ids, target);
    const operations = undoOperations(resource);
    const entries = [...withinReach(inverseEntries(records, current), operations), ...unknownOutcomes(lines)];
    const plan = assemblePlan({ ...target, command: `runs undo ${run.header.run}` }, operations, entries, watermark, createdAt, { undoOf: run.header.run });
    if (wantsPlan(ctx)) return showPlan(ctx, plan);
    const [{ renderPlanText }, { page }] = await Promise.all([import('../../plan/render.js'), import('../../io/pager.js')]);
    // Read before the prompt: through the pager when it is longer than the terminal.
    await page(renderPlanText(plan, ctx.output.color), ctx.io, 'stderr');
    await confirmAndApply(ctx, plan, { shown: true });
  });
}
