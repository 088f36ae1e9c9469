/** `pla tasks`: mass inter-company transfer tasks (spec 4.3). */
import { RESOURCE_VERBS } from '../src/contract/operations.js';
import { WATCH_DEFAULTS } from '../src/bulk/defaults.js';
import { runs } from '../src/cli/invocation.js';
import { wholeNumber } from './option-parsers.js';
import { addIdOptions, addPagingOptions, examples } from './options.js';
import { addIdVerb, addRecordVerbs, idAction } from './record-verbs.js';
import { tree as newTree } from './tree.js';

/** The task handlers, loaded when a verb of theirs runs. */
const handlers = () => import('../src/cli/handlers/tasks.js');

/** Declares the `pla tasks` tree; handlers load only when a verb runs. */
export function createTasksCommand() {
  const tree = newTree('tasks').description('mass inter-company transfer tasks');
  addRecordVerbs(tree, RESOURCE_VERBS.tasks);

  const search = addPagingOptions(
    tree
      .command('search')
      .description('search tasks with a filter (field equality, arrays = any of, {from,to} ranges)')
      .option('--filter <json>', 'the filter object')
      .option('--filter-file <file>', 'the filter from a file (- for stdin)'),
  );
  examples(search, `pla tasks search --filter '{"status": ["PENDING", "RUNNING"]}' --sort createdAt,desc`);
  runs(search, async () => (await handlers()).search);

  addIdVerb(tree, 'cancel', 'cancel tasks by id', idAction('tasks.cancel', 'Cancel'), 'pla tasks cancel 12 13 --yes');

  const watch = addIdOptions(
    tree
      .command('watch [ids...]')
      .description('poll tasks until each one ends, then show their final status')
      .option('--interval <seconds>', `seconds between polls (default ${WATCH_DEFAULTS.intervalSeconds})`, wholeNumber(1)),
  );
  examples(watch, 'pla tasks watch 12 13 --interval 5');
  runs(watch, async () => (await handlers()).watch);
  return tree;
}
