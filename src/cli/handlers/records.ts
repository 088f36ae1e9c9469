/**
 * Record verbs shared by determinations, settings and tasks (and reused by the
 * notification side): get, list, create/update/upsert, and reads without input.
 */
import { UsageError } from '../../errors.js';
import { operation } from '../../contract/operations.js';
import { asRow } from '../../io/output/fields.js';
import { createRowWriter } from '../../io/output/index.js';
import type { SourceItem } from '../../io/input/types.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../lazy-action.js';
import { runBulkCommand } from './bulk.js';
import { listPaged } from './paged.js';
import { forEachItem } from './per-item.js';
import { present } from './present.js';
import { readRecordInput } from './records-input.js';

/** A paged list (`list`, with `--all` streaming). */
export function list(invocation: Invocation, operationId: string, params?: Record<string, string>): Promise<void> {
  return withContext(invocation, (ctx) => listPaged(ctx, operationId, { params }));
}

/** A call without input whose result is shown as is (`meta`, `topics list`, counts). */
export function show(invocation: Invocation, operationId: string, call: { params?: Record<string, string>; query?: Record<string, boolean> } = {}): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const result = await (await ctx.client()).call(operationId, { ...call, signal: ctx.signal });
    await present(ctx, operationId, result, 'done');
  });
}

export interface WriteSpec {
  /** Operation for one record. */
  single: string;
  /** Operation taking many records; without one, records are sent one call each. */
  bulk?: string;
  /** Past tense for the confirmation line ("created"). */
  done: string;
}

/**
 * create / update / upsert and the notification-side creates: one record goes to
 * `single`, several to `bulk` through the bulk runner (or one call each).
 * An update's id comes from the positional argument or the record's `id`.
 */
async function* oneItem(record: Record<string, unknown>): AsyncGenerator<SourceItem<Record<string, unknown>>> {
  yield { value: record, line: 1 };
}

/** The records a --file holds, estimated, when a progress bar will show it. */
async function progressTotal(ctx: CommandContext): Promise<number | undefined> {
  const file = ctx.opts.file as string | undefined;
  if (!ctx.interactive || file === undefined) return undefined;
  const { estimateRecordCount } = await import('../../io/input/index.js');
  return estimateRecordCount(file, ctx.opts.format as 'json' | 'ndjson' | 'csv' | undefined);
}

export function write(invocation: Invocation, spec: WriteSpec): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const needsId = operation(spec.single).pathParams.some((p) => p.name === 'id');
    const positionalId = ctx.args[0] === undefined ? undefined : Number(ctx.args[0]);
    if (positionalId !== undefined && !(Number.isInteger(positionalId) && positionalId > 0)) {
      throw new UsageError(`not an id: ${String(ctx.args[0])}`);
    }
    const input = await readRecordInput(ctx);
    const client = await ctx.client();
    const callFor = async (record: Record<string, unknown>) => {
      const id = positionalId ?? record.id;
      if (needsId && (id === undefined || id === null)) {
        throw new UsageError('no id to update', { hint: 'give the id as an argument or an "id" field in the record' });
      }
      const params = needsId ? { id: id as number } : undefined;
      return client.call(spec.single, { params, body: record, signal: ctx.signal });
    };

    // A file that happens to hold one record still honours --rejects and
    // --checkpoint (a script must not change behaviour with its input's size).
    const wantsBulk = spec.bulk !== undefined && positionalId === undefined && Boolean(ctx.opts.rejects || ctx.opts.checkpoint);
    if ('single' in input && wantsBulk && spec.bulk) return runBulkCommand(ctx, spec.bulk, oneItem(input.single), 1);
    if ('single' in input) return present(ctx, spec.single, await callFor(input.single), spec.done);
    if (positionalId !== undefined) throw new UsageError('an id argument goes with one record; several records must carry their own "id"');
    if (spec.bulk) return runBulkCommand(ctx, spec.bulk, input.many, await progressTotal(ctx));

    const writer = await createRowWriter(ctx.output);
    await forEachItem(
      input.many,
      (item) => `line ${item.line}`,
      async (item) => {
        const { data } = await callFor(item.value);
        for (const row of Array.isArray(data) ? data : data === undefined ? [] : [data]) await writer.write(asRow(row));
      },
      { signal: ctx.signal, onError: (label, error) => process.stderr.write(`${label}: ${(error as Error).message}\n`) },
    ).finally(() => writer.end());
  });
}
