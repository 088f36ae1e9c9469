/** `pla apply PLAN`: send exactly a plan saved with `--plan-out`. */
import { runs } from '../src/cli/invocation.js';
import { addBulkOptions, examples } from './options.js';
import { tree } from './tree.js';

/** Declares `pla apply`; its handler loads only when it runs. */
export function createApplyCommand() {
  const apply = addBulkOptions(
    tree('apply')
      .argument('<plan>', 'a plan saved with --plan-out')
      .description('send exactly a saved plan; records changed since it was made are conflicts, not written (exit 9)')
      .option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)')
      .option('--force', 'apply a plan applied before: sends only what is not yet done'),
  );
  examples(apply, 'pla det upsert --file sheet.csv --plan-out plan.json   # review it, then:', 'pla apply plan.json --rejects conflicts.ndjson');
  return runs(apply, async () => (await import('../src/cli/handlers/apply.js')).apply);
}
