/**
 * Verbs that act on ids: delete, remove, decommission, cancel, mark read. One id
 * uses the single endpoint; several use the bulk endpoint through the bulk runner,
 * or one call each where the service has no bulk endpoint. Destructive verbs
 * confirm first and support `--dry-run`.
 */
import type { Accepted } from '../../bulk/split.js';
import type { PlaClient } from '../../client/types.js';
import type { Noun } from '../../contract/wording.js';
import { NotFoundError, UsageError } from '../../errors.js';
import type { BadRow } from '../../io/input/types.js';
import type { IdVerb } from '../../plan/build.js';
import { operation, verbOf, type OperationId } from '../../contract/operations.js';
import { counted } from '../../contract/wording.js';
import { asRow } from '../../io/output/fields.js';
import { createRowWriter, renderRecord, renderRows } from '../../io/output/index.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { type BulkOptions, runBulkCommand, runBulkPrinting } from './bulk.js';
import type { RemovedRow } from './remove-outcomes.js';
import type { RecordId } from '../../io/input/typed-ids.js';
import { type IdOptions, type IdRows, collectIdRows, idSource } from './ids.js';
import { forEachItem } from './per-item.js';
import { refuseRows } from './refused-rows.js';
import { present } from './present.js';
import { type SafetyOptions, confirmDestructive, requestLine } from './safety.js';
import { type PlanOptions, planTarget, showPlan, wantsPlan, wouldRefuse } from './plan.js';
import { callWithReceipt } from './receipts.js';
import { confirmedWrite } from './single-write.js';

/** An id verb (delete, remove, decommission, cancel, mark read), derived from the contract (commands/record-verbs.ts). */
export interface IdActionSpec {
  /** Operation taking one `{id}`. */
  single: OperationId;
  /** Operation taking an array of ids, when the service has one (the row's `bulk`). */
  bulk?: OperationId;
  /** Operation that reads one record, for `--dry-run` (the row's `read`). */
  lookup?: OperationId;
  /** Imperative, for the prompt: "Delete". */
  verb: string;
  /** Past tense, for the confirmation line: "deleted". */
  done: string;
  noun: Noun;
  /**
   * The service deletes each id or, for a record still in use, decommissions it
   * (remove): the command says which happened to each id.
   */
  deleteOrDecommission?: boolean;
}

/** The options an id verb reads; the bulk, safety and plan ones are declared only where its operation has a use for them. */
export type IdActionOptions = IdOptions & BulkOptions & SafetyOptions & PlanOptions;

/** A row of the ids file that names no id, as `--dry-run` shows it beside the records. */
function problemRow(row: BadRow): Record<string, unknown> {
  return { id: row.record?.id ?? row.raw, note: `line ${row.line}: ${row.message}` };
}

/** The dry run's note of the ids file's refused rows. */
function refusedNote(count: number): string {
  return count > 0 ? `, ${count} row(s) of the ids file would be refused (see the note column)` : '';
}

/**
 * `--dry-run` with one GET per id: for verbs plans do not cover, or text ids. Each
 * record as it is now, or the call that would be made.
 */
async function dryRunById(ctx: CommandContext, client: PlaClient, spec: IdActionSpec, input: IdRows<RecordId | string>): Promise<void> {
  const ids = input.items.map((item) => item.value);
  const rows: Record<string, unknown>[] = new Array(ids.length);
  await forEachItem(
    ids.map((id, index) => ({ id, index })),
    ({ id }) => `id ${id}`,
    async ({ id, index }) => {
      if (!spec.lookup) {
        rows[index] = { id, request: requestLine(spec.single, { id }) };
        return;
      }
      try {
        const { data } = await client.call(spec.lookup, { params: { id }, signal: ctx.signal });
        rows[index] = { ...(data as Record<string, unknown>), id };
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        rows[index] = { id, note: 'not found' };
      }
    },
    { signal: ctx.signal, stderr: ctx.io.stderr, onError: () => {} },
  );
  await renderRows([...rows, ...input.problems.map(problemRow)], ctx.output);
  const { env } = await ctx.connection();
  const via = ids.length > 1 && spec.bulk ? ` (${requestLine(spec.bulk)})` : '';
  ctx.note(
    `dry run: would ${spec.verb.toLowerCase()} ${counted(ids.length, spec.noun)} on ${env}${via}${refusedNote(input.problems.length)}; nothing was changed`,
  );
  if (input.problems.length > 0) throw wouldRefuse(input.problems.length, 'the note column');
}

/** The plan verb of an id action (`determinations.decommission` → `decommission`), when plans cover it. */
function planVerb(spec: IdActionSpec): IdVerb | undefined {
  const verb = verbOf(spec.single);
  return spec.bulk && spec.lookup && (verb === 'delete' || verb === 'remove' || verb === 'decommission' || verb === 'cancel') ? verb : undefined;
}

/**
 * What `--dry-run` shows: each record as it is now (read by pages of the list
 * when that is cheaper than a GET each, with progress), marked when the service
 * would refuse it, and counts that match what the real run would do. Without a
 * read operation, the call that would be made.
 */
async function dryRun(ctx: CommandContext<IdActionOptions>, spec: IdActionSpec, verb: IdVerb, input: IdRows<RecordId>): Promise<void> {
  const { env } = await ctx.connection();
  const ids = input.items.map((item) => item.value);
  const [{ readCurrentState }, { planIds }] = await Promise.all([import('../../plan/current-state.js'), import('../../plan/build.js')]);
  const client = await ctx.client();
  const current = await readCurrentState(client, { get: spec.lookup as OperationId, list: operation(spec.single).list as OperationId }, ids, {
    signal: ctx.signal,
    progress: ctx.startProgress,
  });
  // Not found is gone, as the run counts it: only where the listing answers (a wrong path prefix finds nothing either).
  const { listingAnswers } = await import('../../confirm/already-done.js');
  const goneIsDone = ctx.opts.ignoreNotFound === true && (ids.every((id) => current.has(id)) || (await listingAnswers(client, spec.single, ctx.signal)));
  const entries = planIds(verb, input.items, current, input.problems, goneIsDone);
  const rows = entries.map((entry) =>
    entry.action === 'refused' || entry.action === 'unreadable'
      ? entry.id === undefined
        ? { id: entry.record?.id ?? entry.raw, note: `line ${entry.line ?? '?'}: ${entry.reason ?? entry.action}` }
        : { ...(entry.before ?? {}), id: entry.id, note: entry.reason }
      : // An id found gone says so: its row has nothing else to show.
        { ...(entry.before ?? {}), id: entry.id, ...(entry.action === 'unchanged' && !entry.before ? { note: entry.reason } : {}) },
  );
  await renderRows(rows, ctx.output);
  const refused = entries.filter((entry) => entry.action === 'refused' || entry.action === 'unreadable').length;
  // Counted as the real run counts them: a record already as asked is done there too.
  const already = entries.filter((entry) => entry.action === 'unchanged').length;
  const via = entries.length > 1 ? ` (${requestLine(spec.bulk as OperationId)})` : '';
  const alreadyNote = already > 0 ? `, ${already} of them ${spec.done === 'deleted' ? 'already gone (not found)' : `already ${spec.done}`}` : '';
  const refusals = refused > 0 ? `, ${refused} would be refused (see the note column)` : '';
  ctx.note(
    `dry run: would ${spec.verb.toLowerCase()} ${counted(entries.length - refused, spec.noun)} on ${env}${via}${alreadyNote}${refusals}; nothing was changed`,
  );
  if (refused > 0) throw wouldRefuse(refused, 'the note column');
}

/** `--plan` / `--plan-out` of an id action: the plan against the records' current state. */
async function planIdVerb(ctx: CommandContext<IdActionOptions>, spec: IdActionSpec, input: IdRows<RecordId> | undefined): Promise<void> {
  const verb = planVerb(spec);
  if (!verb) throw new UsageError(`--plan is not available for ${spec.single}`, { hint: 'use --dry-run' });
  if (!input) throw new UsageError('--plan takes record ids (plain digits)', { hint: 'use --dry-run' });
  const { planIdAction } = await import('../../plan/make-plan.js');
  const target = await planTarget(ctx, operation(spec.single).resource);
  await showPlan(ctx, await planIdAction(target, verb, input.items, input.problems, ctx.opts.ignoreNotFound === true));
}

/**
 * A remove (delete, or decommission when in use) that says what happened to each
 * id: a row per id on stdout (one id: one record), the counts on stderr.
 */
async function removeReporting(ctx: CommandContext<IdActionOptions>, client: PlaClient, spec: IdActionSpec, input: IdRows<RecordId | string>): Promise<void> {
  const ids = input.items.map((item) => item.value);
  const { removeOutcomes, outcomeCounts, notRemovedError, goneAlready } = await import('./remove-outcomes.js');
  const outcomesOf = (sent: ReadonlyArray<RecordId | string>, message: string | undefined, readBack?: Accepted['readBack']) =>
    removeOutcomes(client, spec.lookup, sent, message, ctx.signal, readBack);
  // Refused rows of the ids file go the bulk way: to the rejects file, exit 9.
  const only = ids.length === 1 && input.problems.length === 0 ? ids[0] : undefined;
  if (only !== undefined || !spec.bulk) {
    const rows: RemovedRow[] = [];
    const resource = operation(spec.single).resource;
    const show = async () => {
      await (rows.length === 1 ? renderRecord(rows[0], ctx.output) : renderRows(rows, ctx.output));
      ctx.note(`${spec.done} ${counted(rows.length, spec.noun)}: ${outcomeCounts(rows)}`);
    };
    try {
      for (const id of ids) {
        // Read back inside the receipt's call: an id still there and not decommissioned is not receipted as removed.
        await callWithReceipt(
          ctx,
          resource,
          id,
          () => 'remove',
          async () => {
            const answer = await confirmedWrite(ctx, spec.single, { params: { id } }, id);
            const found = await outcomesOf([id], answer.message);
            const outcome = answer.already ? goneAlready(found) : found;
            rows.push(...outcome);
            const notRemoved = notRemovedError(outcome);
            if (notRemoved) throw notRemoved;
            return answer;
          },
        );
      }
    } catch (error) {
      if (rows.length > 0) await show();
      throw error;
    }
    await show();
    const refused = await refuseRows(ctx, input.problems, { input: ctx.opts.idsFile, feedBack: '--ids-file' });
    if (refused) throw refused;
    return;
  }
  const writer = await createRowWriter(ctx.output);
  const rows: RemovedRow[] = [];
  const finish = async () => {
    await writer.end();
    if (rows.length > 0) ctx.note(outcomeCounts(rows));
  };
  try {
    await runBulkCommand(ctx, spec.bulk, await idSource(input), {
      total: ids.length,
      async onAnswers(answers) {
        for (const answer of answers) {
          const found = await outcomesOf(
            answer.items.map((item) => item.value as RecordId),
            answer.result.message,
            answer.readBack,
          );
          const removed = answer.already ? goneAlready(found) : found;
          rows.push(...removed);
          for (const row of removed) await writer.write(asRow(row));
        }
      },
    });
  } catch (error) {
    // The ids removed before the failure are still reported; the failure is what the run ends with.
    await finish().catch(() => undefined);
    throw error;
  }
  await finish();
  const notRemoved = notRemovedError(rows);
  if (notRemoved) throw notRemoved;
}

/** Runs an id verb on the ids given: confirmation or dry run first when destructive. */
export function runIdAction(invocation: Invocation<[ids: string[]], IdActionOptions>, spec: IdActionSpec): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const single = operation(spec.single);
    const input = await collectIdRows<RecordId | string>(ctx, ctx.args[0], { text: single.pathParams.some((p) => p.type === 'int64-or-string') });
    const ids = input.items.map((item) => item.value);
    const destructive = single.destructive;
    // Plans compare record ids (exact past 2^53); text ids (notification side) take the per-id path.
    const verb = planVerb(spec);
    const numeric = ids.every((id): id is RecordId => typeof id !== 'string') ? (input as IdRows<RecordId>) : undefined;
    if (wantsPlan(ctx)) return planIdVerb(ctx, spec, numeric);
    if (destructive && ctx.opts.dryRun) return verb && numeric ? dryRun(ctx, spec, verb, numeric) : dryRunById(ctx, await ctx.client(), spec, input);
    if (destructive && ids.length > 0) await confirmDestructive(ctx, `${spec.verb} ${counted(ids.length, spec.noun)}`);
    const client = await ctx.client();

    if (spec.deleteOrDecommission) return removeReporting(ctx, client, spec, input);
    // With rows of the ids file refused, even one id goes the bulk way: they go to the rejects file, exit 9.
    const only = ids.length === 1 && input.problems.length === 0 ? ids[0] : undefined;
    if (only !== undefined) {
      const call = () => confirmedWrite(ctx, spec.single, { params: { id: only } }, only);
      const action = spec.single.split('.')[1] ?? spec.single;
      // Operations of the record resources leave a receipt; the notification side's do not.
      const result = spec.bulk ? await callWithReceipt(ctx, single.resource, only, () => action, call) : await call();
      // Found already as asked, this run changed nothing: said as found ("determination 9 already gone; read back: not found").
      if (result.already) return ctx.note(`${spec.noun[0]} ${only} ${result.already.how}`);
      return present(ctx, spec.single, result, `${spec.done} ${spec.noun[0]} ${only}`);
    }
    if (spec.bulk) return runBulkPrinting(ctx, spec.bulk, await idSource(input), { total: ids.length });
    let succeeded = 0;
    await forEachItem(
      ids,
      (id) => `${spec.noun[0]} ${id}`,
      async (id) => {
        await confirmedWrite(ctx, spec.single, { params: { id } }, id);
        succeeded += 1;
      },
      { signal: ctx.signal, stderr: ctx.io.stderr },
    ).finally(() => ctx.note(`${spec.done} ${counted(succeeded, spec.noun)}`));
    const refused = await refuseRows(ctx, input.problems, { input: ctx.opts.idsFile, feedBack: '--ids-file' });
    if (refused) throw refused;
  });
}
