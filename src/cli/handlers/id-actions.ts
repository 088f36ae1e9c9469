/**
 * Verbs that act on ids: delete, remove, decommission, cancel, mark read. One id
 * uses the single endpoint; several use the bulk endpoint through the bulk runner,
 * or one call each where the service has no bulk endpoint. Destructive verbs
 * confirm first and support `--dry-run`.
 */
import type { IdActionSpec } from '../../../commands/actions.js';
import type { PlaClient } from '../../client/types.js';
import { NotFoundError } from '../../errors.js';
import { operation } from '../../contract/operations.js';
import { asRow } from '../../io/output/fields.js';
import { createRowWriter, renderRecord, renderRows } from '../../io/output/index.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { runBulkCommand, runBulkPrinting } from './bulk.js';
import type { RemovedRow } from './remove-outcomes.js';
import type { RecordId } from '../../io/input/typed-ids.js';
import { collectIds, idItems } from './ids.js';
import { forEachItem } from './per-item.js';
import { present } from './present.js';
import { confirmDestructive, counted, requestLine } from './safety.js';

/** An id as a row shows it: an int64 past 2^53 (a BigInt) as its digits. */
const shownId = (id: RecordId | string): number | string => (typeof id === 'bigint' ? String(id) : id);

/** What `--dry-run` shows: each record as it is now, or the call that would be made. */
async function dryRun(ctx: CommandContext, client: PlaClient, spec: IdActionSpec, ids: ReadonlyArray<RecordId | string>): Promise<void> {
  const rows: Record<string, unknown>[] = new Array(ids.length);
  await forEachItem(
    ids.map((id, index) => ({ id, index })),
    ({ id }) => `id ${id}`,
    async ({ id, index }) => {
      if (!spec.lookup) {
        rows[index] = { id: shownId(id), request: requestLine(spec.single, { id }) };
        return;
      }
      try {
        const { data } = await client.call(spec.lookup, { params: { id }, signal: ctx.signal });
        rows[index] = { ...(data as Record<string, unknown>), id: shownId(id) };
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        rows[index] = { id: shownId(id), note: 'not found' };
      }
    },
    { signal: ctx.signal, stderr: ctx.io.stderr, onError: () => {} },
  );
  await renderRows(rows, ctx.output);
  const { env } = await ctx.connection();
  const via = ids.length > 1 && spec.bulk ? ` (${requestLine(spec.bulk)})` : '';
  ctx.note(`dry run: would ${spec.verb.toLowerCase()} ${counted(ids.length, spec.noun)} on ${env}${via}; nothing was changed`);
}

/**
 * A remove (delete, or decommission when in use) that says what happened to each
 * id: a row per id on stdout (one id: one record), the counts on stderr.
 */
async function removeReporting(ctx: CommandContext, client: PlaClient, spec: IdActionSpec, ids: ReadonlyArray<RecordId | string>): Promise<void> {
  const { removeOutcomes, outcomeCounts } = await import('./remove-outcomes.js');
  const outcomesOf = (sent: ReadonlyArray<RecordId | string>, message: string | undefined) => removeOutcomes(client, spec.lookup, sent, message, ctx.signal);
  const only = ids.length === 1 ? ids[0] : undefined;
  if (only !== undefined || !spec.bulk) {
    const rows: RemovedRow[] = [];
    for (const id of ids) rows.push(...(await outcomesOf([id], (await client.call(spec.single, { params: { id }, signal: ctx.signal })).message)));
    await (rows.length === 1 ? renderRecord(rows[0], ctx.output) : renderRows(rows, ctx.output));
    ctx.note(`${spec.done} ${counted(rows.length, spec.noun)}: ${outcomeCounts(rows)}`);
    return;
  }
  const writer = await createRowWriter(ctx.output);
  const rows: RemovedRow[] = [];
  const finish = async () => {
    await writer.end();
    if (rows.length > 0) ctx.note(outcomeCounts(rows));
  };
  try {
    await runBulkCommand(ctx, spec.bulk, idItems(ids), {
      total: ids.length,
      async onAnswers(answers) {
        for (const answer of answers) {
          const removed = await outcomesOf(answer.items.map((item) => item.value as RecordId), answer.result.message);
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
}

/** Runs an id verb on the ids given: confirmation or dry run first when destructive. */
export function runIdAction(invocation: Invocation, spec: IdActionSpec): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const single = operation(spec.single);
    const ids = await collectIds(ctx, ctx.args[0], { text: single.pathParams.some((p) => p.type === 'int64-or-string') });
    const destructive = single.destructive;
    if (destructive && ctx.opts.dryRun) return dryRun(ctx, await ctx.client(), spec, ids);
    if (destructive) await confirmDestructive(ctx, `${spec.verb} ${counted(ids.length, spec.noun)}`);
    const client = await ctx.client();

    if (spec.deleteOrDecommission) return removeReporting(ctx, client, spec, ids);
    const only = ids.length === 1 ? ids[0] : undefined;
    if (only !== undefined) {
      const result = await client.call(spec.single, { params: { id: only }, signal: ctx.signal });
      return present(ctx, spec.single, result, `${spec.done} ${spec.noun[0]} ${only}`);
    }
    if (spec.bulk) return runBulkPrinting(ctx, spec.bulk, idItems(ids), { total: ids.length });

    let succeeded = 0;
    await forEachItem(
      ids,
      (id) => `${spec.noun[0]} ${id}`,
      async (id) => {
        await client.call(spec.single, { params: { id }, signal: ctx.signal });
        succeeded += 1;
      },
      { signal: ctx.signal, stderr: ctx.io.stderr },
    ).finally(() => ctx.note(`${spec.done} ${counted(succeeded, spec.noun)}`));
  });
}
