/** `pla topics`: topics with localized captions (spec 4.4), read-only. */
import { Command } from 'commander';
import { lazy } from '../src/cli/lazy-action.js';
import { examples } from './options.js';

/** Declares the `pla topics` tree; its handler loads only when it runs. */
export function createTopicsCommand(): Command {
  const tree = new Command('topics').description('topics with localized captions');
  const list = tree.command('list <service>').description("list a service's topics").option('--lang <code>', 'show the caption in this language');
  examples(list, 'pla topics list portfolio --lang en');
  list.action(lazy(() => import('../src/cli/handlers/topics.js'), (h, inv) => h.list(inv)));
  return tree;
}
