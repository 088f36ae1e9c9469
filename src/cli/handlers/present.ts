/**
 * Shows an operation's result the way its response kind calls for: one record,
 * rows, a count map, or, when there is no body, a short confirmation on stderr.
 */
import type { CallResult } from '../../client/types.js';
import { operation, type OperationId } from '../../contract/operations.js';
import { renderCountMap, renderRecord, renderRows } from '../../io/output/index.js';
import type { CommandContext } from '../context.js';

/** Shows `result` by the operation's response kind; `done` is the stderr line when there is nothing to show. */
export async function present(ctx: CommandContext, operationId: OperationId, result: CallResult, done: string): Promise<void> {
  const { data } = result;
  const op = operation(operationId);
  // After a read an unknown --fields name is an error; after a write (done, whatever is printed) a warning.
  const output = { ...ctx.output, strictFields: op.permission.endsWith(':read') };
  switch (op.response) {
    case 'single':
    case 'schema':
      if (data === null || data === undefined) break;
      return renderRecord(data, output);
    case 'list':
    case 'array':
      if (!Array.isArray(data)) break;
      return renderRows(data, output);
    case 'count-map':
      // A bare count is the service's way of saying `{"count": n}`.
      return renderCountMap((typeof data === 'number' ? { count: data } : (data ?? {})) as Record<string, unknown>, output);
    default:
      break;
  }
  ctx.note(result.message ? `${done} (${result.message})` : done);
}
