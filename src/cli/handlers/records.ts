/**
 * Record verbs shared by determinations, settings and tasks (and reused by the
 * notification side): list, create/update/upsert, and `meta`. `get` has its own
 * module (get.ts) so that the most common command loads none of this.
 */
import { UsageError } from '../../errors.js';
import { operation, verbOf, type OperationId } from '../../contract/operations.js';
import { asRow } from '../../io/output/fields.js';
import { createRowWriter } from '../../io/output/index.js';
import type { BadRow, RepeatedRow, SheetForm, SourceItem } from '../../io/input/types.js';
import type { BadRowRelay } from '../../io/input/bad-rows.js';
import { type RecordId, typedIds } from '../../io/input/typed-ids.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import type { FilterOptions } from '../../contract/list-filters.js';
import { type BulkOptions, createWithId, runBulkPrinting } from './bulk.js';
import { listFiltered, type PagingOptions } from './paged.js';
import { forEachItem } from './per-item.js';
import { refuseRows } from './refused-rows.js';
import { present } from './present.js';
import { type RecordInput, type RecordInputOptions, readRecordInput } from './records-input.js';
import { type PlanOptions, applyWithSummary, planTarget, showPlan, wantsPlan } from './plan.js';
import { callWithReceipt, idToRead, readBefores, receiptId, withReceipt } from './receipts.js';
import { confirmedWrite } from './single-write.js';

/** A verb taking records from --data/--file (create, update, upsert, send …), as commands/record-verbs.ts declares it. */
export interface WriteSpec {
  /** Operation for one record. */
  single: OperationId;
  /** Operation taking many records (the row's `bulk`); without one, records are sent one call each. */
  bulk?: OperationId;
  /** Past tense for the confirmation line ("created"). */
  done: string;
}

/** The options a write verb reads; bulk and plan ones only where its operation has a bulk counterpart. */
export type WriteOptions = RecordInputOptions & BulkOptions & PlanOptions & { skipUnchanged?: boolean; match?: string };

/** A paged list (`list`, with `--all` streaming). */
export function list(invocation: Invocation<[], PagingOptions & FilterOptions>, operationId: OperationId): Promise<void> {
  return withContext(invocation, (ctx) => listFiltered(ctx, operationId));
}

/** A call without input or parameters whose result is shown as is (`meta`). */
export function show(invocation: Invocation, operationId: OperationId): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const result = await (await ctx.client()).call(operationId, { signal: ctx.signal });
    await present(ctx, operationId, result, 'done');
  });
}

/** The one record read as the item stream a bulk run takes: its line, and its csv cells' text (stored types). */
async function* oneItem(input: Extract<RecordInput, { single: unknown }>): AsyncGenerator<SourceItem<Record<string, unknown>>> {
  yield { value: input.single, line: input.line, ...(input.cells ? { cells: input.cells } : {}) };
}

/** Types a csv row's cells as the record it names is stored (a stored string stays a string); warns of type changes left. */
async function followStoredTypesOfOne(
  ctx: CommandContext,
  resource: string,
  record: Record<string, unknown>,
  cells: Record<string, string>,
  id: unknown,
): Promise<void> {
  const { followStoredTypes } = await import('../../plan/stored-types.js');
  const readable = idToRead(id);
  if (readable === 'none' || readable === 'unreadable') return;
  const stored = (await readBefores(ctx, resource, [readable])).get(String(readable));
  if (stored) for (const warning of followStoredTypes(record, cells, stored)) ctx.warn(`type change, ${warning}`);
}

/** The records a --file holds, estimated, when a progress bar will show it. */
async function progressTotal(ctx: CommandContext<RecordInputOptions>): Promise<number | undefined> {
  const { file } = ctx.opts;
  if (!ctx.interactive || file === undefined) return undefined;
  const { estimateRecordCount } = await import('../../io/input/index.js');
  return estimateRecordCount(file, ctx.opts.format);
}

/**
 * create / update / upsert and the notification-side creates: one record goes to
 * `single`, several to `bulk` through the bulk runner (or one call each).
 * An update's id comes from the positional argument or the record's `id`.
 */
export function write(invocation: Invocation<[id?: string], WriteOptions>, spec: WriteSpec): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const needsId = operation(spec.single).pathParams.some((p) => p.name === 'id');
    // The same rule as every other id on the command line: plain digits (`1e3` is no id).
    const positionalId = ctx.args[0] === undefined ? undefined : typedIds([ctx.args[0]])[0];
    const verbName = verbOf(spec.single);
    // Updates and upserts of records name ids: the one id rule, duplicates decided first.
    const input = await readRecordInput(ctx, { recordIds: spec.bulk !== undefined && (verbName === 'update' || verbName === 'upsert') });
    // --match finds each row's record by its natural key: a plan of the whole sheet, then its changes sent.
    if (wantsPlan(ctx) || ctx.opts.skipUnchanged === true || ctx.opts.match !== undefined) {
      return planWrite(ctx, spec, input, positionalId);
    }
    const callFor = async (record: Record<string, unknown>) => {
      if (verbName === 'create' && spec.bulk && record.id !== undefined && record.id !== null) throw createWithId(record.id);
      const id = positionalId ?? record.id;
      if (needsId && (id === undefined || id === null)) {
        throw new UsageError('no id to update', { hint: 'give the id as an argument or an "id" field in the record' });
      }
      const params = needsId ? { id: id as RecordId } : undefined;
      // What reading back checks: the record with the id it was sent to.
      return confirmedWrite(ctx, spec.single, { ...(params ? { params } : {}), body: record }, needsId ? { ...record, id } : record);
    };

    // A file that happens to hold one record goes the way its many would: a refusal
    // is a reject with its line (exit 9), --rejects and --checkpoint are honoured (a
    // script must not change behaviour with its input's size).
    const bulkForOne = positionalId === undefined && (ctx.opts.rejects || ctx.opts.checkpoint || ('single' in input && input.fromFile)) ? spec.bulk : undefined;
    if ('single' in input && bulkForOne) return runBulkPrinting(ctx, bulkForOne, oneItem(input), { total: 1, one: true });
    if ('single' in input) {
      const record = input.single;
      const id = positionalId ?? record.id;
      // A csv row naming a stored record takes its types, as in a bulk run (plan/stored-types.ts).
      if (input.cells && spec.bulk && id !== undefined) await followStoredTypesOfOne(ctx, operation(spec.single).resource, record, input.cells, id);
      const verb = verbOf(spec.single) ?? 'done';
      // An upsert updated when the record it names existed (known before, or the answer kept the id).
      const actionOf = (before: unknown, after: Record<string, unknown> | undefined) =>
        verb !== 'upsert' ? verb : before !== undefined || (id !== undefined && receiptId(after?.id) === receiptId(id)) ? 'update' : 'create';
      // Record resources (with a bulk endpoint) leave a receipt; the notification side's creates do not.
      const result = spec.bulk ? await callWithReceipt(ctx, operation(spec.single).resource, id, actionOf, () => callFor(record)) : await callFor(record);
      return present(ctx, spec.single, result, spec.done);
    }
    if (positionalId !== undefined) throw new UsageError('an id argument goes with one record; several records must carry their own "id"');
    if (spec.bulk) {
      const total = await progressTotal(ctx);
      return runBulkPrinting(ctx, spec.bulk, input.many, total === undefined ? {} : { total });
    }

    // Rows unreadable or refused while reading: no bulk runner takes them here, so they are kept for the rejects file.
    const problems: BadRow[] = [];
    (input.many as { badRows?: BadRowRelay }).badRows?.listen((row) => problems.push(row));
    const writer = await createRowWriter(ctx.output);
    const failed = await forEachItem(
      input.many,
      (item) => `line ${item.line}`,
      async (item) => {
        const { data } = await callFor(item.value);
        for (const row of Array.isArray(data) ? data : data === undefined ? [] : [data]) await writer.write(asRow(row));
      },
      { signal: ctx.signal, stderr: ctx.io.stderr },
    )
      .finally(() => writer.end())
      // Records the service refused are the run's failure; the rows refused before are in the rejects file all the same.
      .catch((error: unknown) => ({ error }));
    const refused = await refuseRows(ctx, problems, { input: ctx.opts.file, feedBack: '--file' });
    if (failed) throw failed.error;
    if (refused) throw refused;
  });
}

/**
 * `--plan` / `--plan-out`: reads every record, plans against the current state and
 * shows the plan; `--skip-unchanged`: sends only the plan's changes (a re-import
 * of 50,000 rows where 12 changed sends 12), with a receipt.
 */
async function planWrite(ctx: CommandContext<WriteOptions>, spec: WriteSpec, input: RecordInput, positionalId: RecordId | undefined): Promise<void> {
  const verb = verbOf(spec.single) ?? 'done';
  if (verb !== 'create' && verb !== 'update' && verb !== 'upsert')
    throw new UsageError(`--plan and --skip-unchanged work with create, update and upsert, not ${verb}`);
  if (ctx.opts.skipUnchanged === true && verb === 'create') throw new UsageError('--skip-unchanged goes with update and upsert: a create always creates');
  const items: Array<SourceItem<Record<string, unknown>>> = [];
  // Rows unreadable or refused while reading: the plan lists them, in input order.
  const problems: BadRow[] = [];
  // A csv row's cells go with it: typed as the stored record has them, as in a run.
  if ('single' in input)
    items.push({
      value: positionalId === undefined ? input.single : { ...input.single, id: positionalId },
      line: input.line,
      ...(input.cells ? { cells: input.cells } : {}),
      ...(input.row ? { row: input.row } : {}),
    });
  else {
    if (positionalId !== undefined) throw new UsageError('an id argument goes with one record; several records must carry their own "id"');
    (input.many as { badRows?: BadRowRelay }).badRows?.listen((row) => problems.push(row));
    for await (const item of input.many) items.push(item);
  }
  const { planRecordWrite } = await import('../../plan/make-plan.js');
  const repeats = 'many' in input ? ((input.many as { repeats?: RepeatedRow[] }).repeats ?? []) : [];
  const sheetForm = 'single' in input ? input.sheetForm : (input.many as { sheetForm?: () => SheetForm | undefined }).sheetForm?.();
  const plan = await planRecordWrite(await planTarget(ctx, operation(spec.single).resource), verb, items, problems, repeats, {
    ...(ctx.opts.match !== undefined ? { match: ctx.opts.match } : {}),
    ...(sheetForm ? { sheetForm } : {}),
  });
  if (wantsPlan(ctx)) return showPlan(ctx, plan);
  const notSent = (plan.counts.refused ?? 0) + (plan.counts.unreadable ?? 0);
  if ((plan.counts.create ?? 0) + (plan.counts.update ?? 0) + notSent === 0) {
    const { planSummary } = await import('../../plan/render.js');
    return ctx.note(`${planSummary(plan)} Nothing to send.`);
  }
  await withReceipt(ctx, plan.resource, (receipt) => applyWithSummary(ctx, plan, receipt, false).then(() => undefined));
}
