/**
 * A single write as commands send it: confirmed by its answer or by reading back
 * (src/confirm), and, when neither tells, kept in the unknown-outcome file as a
 * bulk run keeps its records of unknown outcome, so the admin can check them
 * before sending anything again.
 */
import type { CallOptions, CallResult } from '../../client/types.js';
import type { OperationId } from '../../contract/operations.js';
import { OutcomeUnknownError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** Sends one write of `sent` (an id or a record) and returns what the service confirmed. */
export async function confirmedWrite(ctx: CommandContext, operationId: OperationId, options: CallOptions, sent: unknown): Promise<CallResult> {
  const { confirmedCall } = await import('../../confirm/confirmed-call.js');
  try {
    return await confirmedCall(await ctx.client(), operationId, { ...options, signal: ctx.signal }, sent);
  } catch (error) {
    if (!(error instanceof OutcomeUnknownError)) throw error;
    const [{ RejectsFile }, { formatFromPath }, { newRunId }] = await Promise.all([
      import('../../bulk/rejects.js'),
      import('../../io/input/format.js'),
      import('../../runs/receipt-writer.js'),
    ]);
    const path = (ctx.opts.unknownOutcome as string | undefined) ?? `unknown-outcome-${newRunId()}.ndjson`;
    const file = new RejectsFile(path, formatFromPath(path) ?? 'ndjson');
    await file.open(false);
    await file.write([{ value: sent, error: error.message }]);
    await file.close();
    error.hint = `it is in ${path}: check it (\`pla … get\`, or --plan --file ${path}) before sending it again`;
    throw error;
  }
}
