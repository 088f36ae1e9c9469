/** `pla determinations` (alias `det`): asset transaction type determinations (spec 4.1). */
import { RESOURCE_VERBS } from '../src/contract/operations.js';
import { runs } from '../src/cli/invocation.js';
import { addBulkOptions, addIdOptions, addRerunOption, addPlanOptions, addSafetyOptions, examples } from './options.js';
import { addIdVerb, addRecordVerbs, idAction } from './record-verbs.js';
import { tree as newTree } from './tree.js';

/** Declares the `pla determinations` tree; handlers load only when a verb runs. */
export function createDeterminationsCommand() {
  const tree = newTree('determinations').alias('det').description('asset transaction type determinations');
  addRecordVerbs(tree, RESOURCE_VERBS.determinations);

  addIdVerb(
    tree,
    'remove',
    'delete determinations, or decommission those still in use',
    { ...idAction('determinations.remove', 'Remove'), deleteOrDecommission: true },
    'pla determinations remove --ids-file stale.txt --yes',
  );

  const decommission = addPlanOptions(
    addSafetyOptions(
      addRerunOption(
        addBulkOptions(
          addIdOptions(
            tree
              .command('decommission [ids...]')
              .description('decommission determinations by id, or every one modified before a date')
              .option('--modified-before <date>', 'a date (its midnight UTC) or date-time, ISO 8601')
              .option('--before-now', 'every determination modified before now'),
          ),
        ),
      ),
    ),
  );
  examples(decommission, 'pla det decommission 7 8 9 --yes', 'pla det decommission --modified-before 2024-01-01 --plan-out retire.json');
  // By ids, or by date when --modified-before/--before-now is given: the handler picks.
  const spec = idAction('determinations.decommission', 'Decommission');
  runs(decommission, async () => {
    const { decommission: run } = await import('../src/cli/handlers/decommission.js');
    return (invocation) => run(invocation, spec);
  });
  return tree;
}
