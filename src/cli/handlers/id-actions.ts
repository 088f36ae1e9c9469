/**
 * Verbs that act on ids: delete, remove, decommission, cancel, mark read. One id
 * uses the single endpoint; several use the bulk endpoint through the bulk runner,
 * or one call each where the service has no bulk endpoint. Destructive verbs
 * confirm first and support `--dry-run`.
 */
import type { PlaClient } from '../../client/types.js';
import { NotFoundError } from '../../errors.js';
import { operation } from '../../contract/operations.js';
import { renderRows } from '../../io/output/index.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../lazy-action.js';
import { runBulkCommand } from './bulk.js';
import type { RecordId } from '../../io/input/typed-ids.js';
import { collectIds, idItems } from './ids.js';
import { forEachItem } from './per-item.js';
import { present } from './present.js';
import { confirmDestructive, counted, requestLine } from './safety.js';

/** An id verb, derived from the contract by commands/record-verbs.ts. */
export interface IdActionSpec {
  /** Operation taking one `{id}`. */
  single: string;
  /** Operation taking an array of ids, when the service has one. */
  bulk?: string;
  /** Operation that reads one record, for `--dry-run`. */
  lookup?: string;
  /** Imperative, for the prompt: "Delete". */
  verb: string;
  /** Past tense, for the confirmation line: "deleted". */
  done: string;
  noun: readonly [string, string];
}

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
    { signal: ctx.signal, onError: () => {} },
  );
  await renderRows(rows, ctx.output);
  const { env } = await ctx.connection();
  const via = ids.length > 1 && spec.bulk ? ` (${requestLine(spec.bulk)})` : '';
  ctx.note(`dry run: would ${spec.verb.toLowerCase()} ${counted(ids.length, spec.noun)} on ${env}${via}; nothing was changed`);
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

    const only = ids.length === 1 ? ids[0] : undefined;
    if (only !== undefined) {
      const result = await client.call(spec.single, { params: { id: only }, signal: ctx.signal });
      return present(ctx, spec.single, result, `${spec.done} ${spec.noun[0]} ${only}`);
    }
    if (spec.bulk) return runBulkCommand(ctx, spec.bulk, idItems(ids), ids.length);

    let succeeded = 0;
    await forEachItem(
      ids,
      (id) => `${spec.noun[0]} ${id}`,
      async (id) => {
        await client.call(spec.single, { params: { id }, signal: ctx.signal });
        succeeded += 1;
      },
      { signal: ctx.signal },
    ).finally(() => ctx.note(`${spec.done} ${counted(succeeded, spec.noun)}`));
  });
}
