/**
 * A run is undone once. Undoing it again would act on records as the first undo
 * left them (a deleted record re-created a second time, with yet another id), so
 * a run whose receipts name an undo of it is not undone again, and neither is any
 * run while a receipt that cannot be read might be such an undo. Checked before
 * the undo is shown, and again under the environment's lock just before it is
 * sent: of two undos started at once, the second finds the first's receipt.
 */
import { UsageError } from '../errors.js';
import { readRunsFolder, refuseIfAnyUnreadable, type RunSummary } from './receipt-store.js';

function outcome(run: RunSummary): string {
  if (!run.end) return 'unfinished: it was stopped or crashed, or is still running';
  const counts = Object.entries(run.end.counts).map(([name, n]) => `${name} ${n}`);
  return `exit ${run.end.exitCode}${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`;
}

/** Refuses (exit 2) to undo `run` when an undo of it is on record, saying what that undo did. */
export async function refuseSecondUndo(run: string, dir: string): Promise<void> {
  const folder = await readRunsFolder(dir);
  refuseIfAnyUnreadable(folder, `whether it undid run ${run} already is not known: run ${run} is not undone`);
  const earlier = folder.runs.find((receipt) => receipt.header.undoOf === run);
  if (!earlier) return;
  const { header } = earlier;
  throw new UsageError(
    `run ${run} was undone already, by run ${header.run} (started ${header.startedAt}, ${outcome(earlier)}); a run is undone once: nothing was sent`,
    {
      hint: `pla runs show ${header.run} shows what that undo did; pla runs undo ${header.run} reverses it`,
    },
  );
}
