/**
 * Bulk requests answered item by item (`--wire` with `bulkItems: per-item`): each
 * record or id goes through the operation's own handler alone, in a transaction of
 * its own, and the answer lists one result per item, as many real services do. A
 * client that counts the request's status instead of the items is wrong here:
 * that is what this form rehearses.
 */
import type { Operation } from '../contract/operations.js';
import type { OperationCall, OperationHandler, OperationOutcome, ServerContext } from './context.js';
import { HttpProblem } from './problem.js';

/** Whether `op` takes a list of records or ids (a bulk operation). */
export function isBulk(op: Operation): boolean {
  return op.body?.kind === 'records' || op.body?.kind === 'ids';
}

/** The id an item names, when it names one. */
function idOf(item: unknown): unknown {
  if (typeof item === 'number' || typeof item === 'bigint' || typeof item === 'string') return item;
  return typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
}

/**
 * Runs `handler` once per item of the call's body and answers the results: a
 * record operation's record (or `{"id", "success": false, "error"}`), an id
 * operation's `{"id", "<done>": true}` (or `false` with the `reason`). A failure
 * that is not about the item (the store down) still fails the whole request.
 */
export async function runPerItem(handler: OperationHandler, call: OperationCall, ctx: ServerContext): Promise<OperationOutcome> {
  const items = Array.isArray(call.body) ? (call.body as unknown[]) : [];
  const done = call.op.done ?? 'done';
  const results: unknown[] = [];
  let failed = 0;
  for (const item of items) {
    const id = idOf(item);
    try {
      const outcome = await handler({ ...call, body: [item] }, ctx);
      const answered = Array.isArray(outcome.data) ? outcome.data[0] : undefined;
      results.push(call.op.body?.kind === 'records' && answered !== undefined ? answered : { id, [done]: true });
    } catch (error) {
      if (!(error instanceof HttpProblem) || error.status >= 500) throw error;
      failed += 1;
      results.push(
        call.op.body?.kind === 'records'
          ? { ...(id !== undefined ? { id } : {}), success: false, error: error.detail }
          : { id, [done]: false, reason: error.detail },
      );
    }
  }
  return { data: results, message: `${items.length - failed} of ${items.length} ${done}` };
}
