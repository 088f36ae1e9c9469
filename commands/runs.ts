/** `pla runs`: receipts of the runs that changed something, and undo. */
import { Command } from 'commander';
import { declareAction } from './actions.js';
import { wholeNumber } from './option-parsers.js';
import { addBulkOptions, addPlanOptions, examples } from './options.js';

/** Declares the `pla runs` tree; handlers load only when a verb runs. */
export function createRunsCommand(): Command {
  const tree = new Command('runs').description('receipts of the runs that changed something; undo');
  examples(declareAction(tree.command('list').description('every run kept, oldest first'), 'runs.list'), 'pla runs list');
  examples(
    declareAction(tree.command('show <run>').description("a run's receipt: who, where, what, and each record before and after (-o json|ndjson|csv)"), 'runs.show'),
    'pla runs show last -o json',
  );
  examples(
    declareAction(
      tree
        .command('prune')
        .description('remove receipts')
        .option('--older-than <days>', 'receipts of runs started more than this many days ago', wholeNumber(0))
        .option('--all', 'every receipt'),
      'runs.prune',
    ),
    'pla runs prune --older-than 90',
  );
  const undo = tree
    .command('undo <run>')
    .description('undo a run: its inverse plan, shown, confirmed and applied (what cannot be undone is listed)')
    .option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)');
  addPlanOptions(undo);
  addBulkOptions(undo);
  examples(undo, 'pla runs undo 20261122-204512-031-3fa9 --plan', 'pla runs undo last --yes');
  declareAction(undo, 'runs.undo');
  return tree;
}
