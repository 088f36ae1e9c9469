/** A command tree, or a top-level command: its verbs see the global options. */
import { Command } from '@commander-js/extra-typings';
import type { GlobalOptions } from './global-options.js';

export type Tree = Command<[], {}, GlobalOptions>;

/** A new top-level command named `name`, typed to see the global options. */
export function tree(name: string): Tree {
  return new Command<[], {}, GlobalOptions>(name);
}
