/**
 * How far earlier applies of a plan got, from their receipts: the entries the
 * service confirmed (record lines carry their plan entry), and those sent whose
 * answer was never recorded (a `sending` line without its `settled` one, or
 * settled as unknown). `pla apply` refuses a plan applied before, and with
 * `--force` sends only what is not yet done.
 */
import { damagedReceiptError, readRunsFolder, receiptLines, refuseIfAnyUnreadable, type RunSummary } from './receipt-store.js';

export interface PlanProgress {
  /** Receipts of earlier applies of the plan, oldest first. */
  runs: RunSummary[];
  /** Entries the service confirmed. */
  done: Set<number>;
  /** Entries sent whose outcome no receipt holds (not in `done`). */
  pending: Set<number>;
}

/** Fails closed: a damaged receipt that may be of this plan refuses the apply (exit 2), `--force` or not. */
export async function planProgress(planId: string, dir: string): Promise<PlanProgress> {
  const folder = await readRunsFolder(dir);
  const refused = 'what an earlier apply of this plan did is not known: the plan is not applied again';
  refuseIfAnyUnreadable(folder, refused);
  const runs = folder.runs.filter((run) => run.header.plan === planId);
  for (const run of runs) if (run.damaged) throw damagedReceiptError(run.path, run.damaged, `it applied this plan (run ${run.header.run}) and ${refused}`);
  const done = new Set<number>();
  const pending = new Set<number>();
  for (const run of runs) {
    const open = new Map<number, Map<number, number | undefined>>();
    for await (const line of receiptLines(run.path, `it applied this plan (run ${run.header.run}) and ${refused}`)) {
      if (line.type === 'record' && line.entry !== undefined) done.add(line.entry);
      else if (line.type === 'sending') open.set(line.batch, new Map(line.items.map((item) => [item.line, item.entry])));
      else if (line.type === 'settled') {
        const items = open.get(line.batch);
        open.delete(line.batch);
        for (const unknown of line.unknown ?? []) {
          const entry = items?.get(unknown);
          if (entry !== undefined) pending.add(entry);
        }
      }
    }
    for (const items of open.values()) for (const entry of items.values()) if (entry !== undefined) pending.add(entry);
  }
  for (const entry of done) pending.delete(entry);
  return { runs, done, pending };
}
