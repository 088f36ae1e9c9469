/** `pla topics`: topics with localized captions (spec 4.4), read-only. */
import { Command } from 'commander';
import { declareAction } from './actions.js';
import { examples } from './options.js';

/** Declares the `pla topics` tree; its handler loads only when it runs. */
export function createTopicsCommand(): Command {
  const tree = new Command('topics').description('topics with localized captions');
  const list = tree.command('list <service>').description("list a service's topics").option('--lang <code>', 'show the caption in this language');
  examples(list, 'pla topics list portfolio --lang en');
  declareAction(list, 'topics.list');
  return tree;
}
