/** `pla tasks`: mass inter-company transfer tasks (spec 4.3). */
import { RESOURCE_VERBS } from '../src/contract/operations.js';
import { Command } from 'commander';
import { declareAction } from './actions.js';
import { wholeNumber } from './option-parsers.js';
import { addIdOptions, addPagingOptions, examples } from './options.js';
import { addIdVerb, addRecordVerbs, idAction } from './record-verbs.js';


/** Declares the `pla tasks` tree; handlers load only when a verb runs. */
export function createTasksCommand(): Command {
  const tree = new Command('tasks').description('mass inter-company transfer tasks');
  addRecordVerbs(tree, RESOURCE_VERBS.tasks);

  const search = tree
    .command('search')
    .description('search tasks with a filter (field equality, arrays = any of, {from,to} ranges)')
    .option('--filter <json>', 'the filter object')
    .option('--filter-file <file>', 'the filter from a file (- for stdin)');
  addPagingOptions(search);
  examples(search, `pla tasks search --filter '{"status": ["PENDING", "RUNNING"]}' --sort createdAt,desc`);
  declareAction(search, 'tasks.search');

  addIdVerb(tree, 'cancel', 'cancel tasks by id', idAction('tasks.cancel', 'Cancel'), 'pla tasks cancel 12 13 --yes');

  const watch = tree
    .command('watch [ids...]')
    .description('poll tasks until each one ends, then show their final status')
    .option('--interval <seconds>', 'seconds between polls (default 2)', wholeNumber(1));
  addIdOptions(watch);
  examples(watch, 'pla tasks watch 12 13 --interval 5');
  declareAction(watch, 'tasks.watch');
  return tree;
}
