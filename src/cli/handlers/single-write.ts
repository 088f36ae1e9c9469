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
import type { BulkOptions } from './bulk.js';

/** The one option a single write reads: where its unknown outcomes go (`--unknown-outcome`, on commands that have it). */
type WriteContext = CommandContext<Pick<BulkOptions, 'unknownOutcome'>>;

/** The unknown-outcome file of one command: its path, and the chain of writes to it (one at a time). */
interface UnknownFile {
  path: string;
  written: Promise<void>;
  started: boolean;
}

const unknownFiles = new WeakMap<WriteContext, UnknownFile>();

/**
 * Adds `sent` to the command's unknown-outcome file (several single writes of one
 * command share it: the notification side sends one call per record) and returns
 * its path.
 */
async function keepUnknown(ctx: WriteContext, sent: unknown, error: Error): Promise<string> {
  const [{ RejectsFile }, { formatFromPath }, { newRunId }] = await Promise.all([
    import('../../bulk/rejects.js'),
    import('../../io/input/format.js'),
    import('../../runs/receipt-writer.js'),
  ]);
  let kept = unknownFiles.get(ctx);
  if (!kept) {
    kept = { path: ctx.opts.unknownOutcome ?? `unknown-outcome-${newRunId()}.ndjson`, written: Promise.resolve(), started: false };
    unknownFiles.set(ctx, kept);
  }
  const { path } = kept;
  const resume = kept.started;
  kept.started = true;
  kept.written = kept.written.then(async () => {
    const file = new RejectsFile(path, formatFromPath(path) ?? 'ndjson');
    await file.open(resume);
    await file.write([{ value: sent, error: error.message }]);
    await file.close();
  });
  await kept.written;
  return path;
}

/** Sends one write of `sent` (an id or a record) and returns what the service confirmed. */
export async function confirmedWrite(ctx: WriteContext, operationId: OperationId, options: CallOptions, sent: unknown): Promise<CallResult> {
  const { confirmedCall } = await import('../../confirm/confirmed-call.js');
  try {
    return await confirmedCall(await ctx.client(), operationId, { ...options, signal: ctx.signal }, sent);
  } catch (error) {
    if (!(error instanceof OutcomeUnknownError)) throw error;
    const path = await keepUnknown(ctx, sent, error);
    error.hint = `it is in ${path}: check it (\`pla … get\`, or --plan --file ${path}) before sending it again`;
    throw error;
  }
}
