/**
 * A single write as commands send it: confirmed by its answer or by reading back
 * (src/confirm), a refusal of a change the record already shows counted as done
 * (src/confirm/already-done.ts), and, when neither tells, kept in the unknown-outcome file as a
 * bulk run keeps its records of unknown outcome, so the admin can check them
 * before sending anything again.
 */
import type { CallOptions, CallResult } from '../../client/types.js';
import type { AlreadyDone } from '../../confirm/already-done.js';
import type { OperationId } from '../../contract/operations.js';
import { ApiError, PlaError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import type { BulkOptions } from './bulk.js';

/** The options a single write reads: where its unknown outcomes go (`--unknown-outcome`), whether not found is done (`--ignore-not-found`), on commands that have them. */
type WriteContext = CommandContext<Pick<BulkOptions, 'unknownOutcome' | 'ignoreNotFound'>>;

/** What the service confirmed of a write; `already`: it refused, and the record already was as asked (or gone, as allowed). */
export interface WriteResult extends CallResult {
  already?: AlreadyDone;
}

/** The unknown-outcome file of one command: its path, and the chain of writes to it (one at a time). */
interface UnknownFile {
  path: string;
  written: Promise<void>;
}

const unknownFiles = new WeakMap<WriteContext, UnknownFile>();

/**
 * Adds `sent` to the command's unknown-outcome file (several single writes of one
 * command share it: the notification side sends one call per record) and returns
 * its path.
 */
async function keepUnknown(ctx: WriteContext, sent: unknown, error: Error): Promise<string> {
  const [{ RejectsFile }, { formatFromPath }, { newRunId }, { runsDir }, { join }] = await Promise.all([
    import('../../bulk/rejects.js'),
    import('../../io/input/format.js'),
    import('../../runs/run-id.js'),
    import('../../runs/receipt-store.js'),
    import('node:path'),
  ]);
  let kept = unknownFiles.get(ctx);
  if (!kept) {
    // Beside the run's receipt by default: a single write has no checkpoint or rejects file to sit beside.
    kept = { path: ctx.opts.unknownOutcome ?? join(runsDir(ctx.env), `unknown-outcome-${newRunId()}.ndjson`), written: Promise.resolve() };
    unknownFiles.set(ctx, kept);
  }
  const { path } = kept;
  kept.written = kept.written.then(async () => {
    // Added to, never replaced: a --unknown-outcome file named again keeps what it held.
    const file = new RejectsFile(path, formatFromPath(path) ?? 'ndjson');
    await file.open();
    await file.write([{ value: sent, error: error.message }]);
    await file.close();
  });
  await kept.written;
  return path;
}

/** Sends one write of `sent` (an id or a record) and returns what the service confirmed. */
export async function confirmedWrite(ctx: WriteContext, operationId: OperationId, options: CallOptions, sent: unknown): Promise<WriteResult> {
  const { confirmedCall } = await import('../../confirm/confirmed-call.js');
  const client = await ctx.client();
  try {
    return await confirmedCall(client, operationId, { ...options, signal: ctx.signal }, sent);
  } catch (error) {
    // Refused because the record already is as asked (a rerun's cancel of a cancelled task): done, as read back.
    const { alreadyDone } = await import('../../confirm/already-done.js');
    const already = await alreadyDone(client, operationId, sent, error, ctx.signal, { goneIsDone: ctx.opts.ignoreNotFound === true });
    if (already && error instanceof ApiError) return { status: error.status, data: undefined, message: already.how, headers: {}, already };
    // Sent, and neither its answer nor a read back tells whether it was carried out (a 5xx or a timeout on a create too).
    if (!(error instanceof PlaError) || !error.outcomeUnknown) throw error;
    // The file is a help, not the outcome: a folder that cannot take it leaves the error as it is.
    const path = await keepUnknown(ctx, sent, error).catch(() => undefined);
    if (path !== undefined)
      error.hint = `the service may have carried it out: it is in ${path}; check it (\`pla … get\`, or --plan --file ${path}) before sending it again`;
    throw error;
  }
}
