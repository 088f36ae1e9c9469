/** `pla topics`: topics with localized captions (spec 4.4), read-only. */
import { runs } from '../src/cli/invocation.js';
import { examples } from './options.js';
import { tree as newTree } from './tree.js';

/** Declares the `pla topics` tree; its handler loads only when it runs. */
export function createTopicsCommand() {
  const tree = newTree('topics').description('topics with localized captions');
  const list = tree.command('list <service>').description("list a service's topics").option('--lang <code>', 'show the caption in this language');
  examples(list, 'pla topics list portfolio --lang en');
  runs(list, async () => (await import('../src/cli/handlers/topics.js')).list);
  return tree;
}
