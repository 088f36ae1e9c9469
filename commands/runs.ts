/** `pla runs`: receipts of the runs that changed something, and undo. */
import { runs } from '../src/cli/invocation.js';
import { wholeNumber } from './option-parsers.js';
import { addBulkOptions, addPlanOptions, examples } from './options.js';
import { tree as newTree } from './tree.js';

/** The runs handlers, loaded when a verb runs. */
const handlers = () => import('../src/cli/handlers/runs.js');

/** Declares the `pla runs` tree; handlers load only when a verb runs. */
export function createRunsCommand() {
  const tree = newTree('runs').description('receipts of the runs that changed something; undo');
  examples(
    runs(
      tree
        .command('list')
        .description('the runs kept on the chosen environment (-e, PLA_ENV or pla config use), oldest first')
        .option('-A, --all-envs', 'the runs of every environment'),
      async () => (await handlers()).list,
    ),
    'pla runs list',
    'pla runs list -e production',
    'pla runs list --all-envs',
  );
  examples(
    runs(
      tree
        .command('show <run>')
        .description("a run's receipt: who, where, what, and each record before and after (-o json|ndjson|csv); last: the chosen environment's last run"),
      async () => (await handlers()).show,
    ),
    'pla runs show last -o json',
  );
  examples(
    runs(
      tree
        .command('prune')
        .description('remove receipts')
        .option('--older-than <days>', 'receipts of runs started more than this many days ago', wholeNumber(0))
        .option('--all', 'every receipt'),
      async () => (await handlers()).prune,
    ),
    'pla runs prune --older-than 90',
  );
  const undo = addBulkOptions(
    addPlanOptions(
      tree
        .command('undo <run>')
        .description("undo a run: its inverse plan, shown, confirmed and applied (what cannot be undone is listed); last: the chosen environment's last run")
        .option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)'),
    ),
  );
  examples(undo, 'pla runs undo 20261122-204512-031-3fa9 --plan', 'pla runs undo last --yes');
  runs(undo, async () => (await handlers()).undo);
  return tree;
}
