/** `pla apply PLAN`: send exactly a plan saved with `--plan-out`. */
import { Command } from 'commander';
import { declareAction } from './actions.js';
import { addBulkOptions, examples } from './options.js';

/** Declares `pla apply`; its handler loads only when it runs. */
export function createApplyCommand(): Command {
  const apply = new Command('apply')
    .argument('<plan>', 'a plan saved with --plan-out')
    .description('send exactly a saved plan; records changed since it was made are conflicts, not written (exit 9)')
    .option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)')
    .option('--force', 'apply a plan applied before: sends only what is not yet done');
  addBulkOptions(apply);
  examples(apply, 'pla det upsert --file sheet.csv --plan-out plan.json   # review it, then:', 'pla apply plan.json --rejects conflicts.ndjson');
  return declareAction(apply, 'apply.run');
}
