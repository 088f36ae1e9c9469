/**
 * Registers the command trees on the program. Cheap, and cheaper still when the
 * command line names a tree: then only that tree is built (declaring every verb
 * and option of all nine costs as much as the rest of a `get` start-up), and for
 * the top-level help only the trees' names and descriptions are declared.
 */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { createApiCommand } from './api.js';
import { createCompletionCommand } from './completion.js';
import { createApplyCommand } from './apply.js';
import { createRunsCommand } from './runs.js';
import { createConfigCommand } from './config.js';
import { createDeterminationsCommand } from './determinations.js';
import { createDoctorCommand } from './doctor.js';
import { createImagesCommand } from './images.js';
import { createNotificationsCommand } from './notifications.js';
import { createServerCommand } from './server.js';
import { createSettingsCommand } from './settings.js';
import { createTasksCommand } from './tasks.js';
import { createTopicsCommand } from './topics.js';

interface Tree {
  /** The name, then the aliases. */
  names: readonly string[];
  /** The description, for the top-level help; only trees of subcommands have one here. */
  summary?: string;
  create: () => CommandUnknownOpts;
}

/** Every tree, with what the top-level help shows of it; a test keeps these in step with the trees. */
export const TREES: readonly Tree[] = [
  { names: ['determinations', 'det'], summary: 'asset transaction type determinations', create: createDeterminationsCommand },
  { names: ['settings', 'set'], summary: 'system financial settings', create: createSettingsCommand },
  { names: ['tasks'], summary: 'mass inter-company transfer tasks', create: createTasksCommand },
  { names: ['notifications', 'notif'], summary: 'notifications of users, e-mail notifications', create: createNotificationsCommand },
  { names: ['images'], summary: 'images of real estate properties', create: createImagesCommand },
  { names: ['topics'], summary: 'topics with localized captions', create: createTopicsCommand },
  { names: ['config'], summary: 'environments, base URLs, API keys, proxies and CA files', create: createConfigCommand },
  { names: ['api'], create: createApiCommand },
  { names: ['apply'], create: createApplyCommand },
  { names: ['runs'], summary: 'receipts of the runs that changed something; undo', create: createRunsCommand },
  { names: ['server'], summary: 'run and administer the local server', create: createServerCommand },
  { names: ['completion'], create: createCompletionCommand },
  { names: ['doctor'], create: createDoctorCommand },
];

/** A tree's name, aliases and description, without its verbs. */
function outline(tree: Tree): CommandUnknownOpts {
  const [name = '', ...aliases] = tree.names;
  return new Command(name).aliases(aliases).description(tree.summary ?? '');
}

/**
 * Adds the trees: only the one named `word` when there is one; only outlines when
 * `outlineOnly` (the top-level help); else every tree (`help`, typos).
 */
export function registerCommands(program: CommandUnknownOpts, word?: string, outlineOnly = false): void {
  const named = TREES.filter((tree) => word !== undefined && tree.names.includes(word));
  for (const tree of named.length > 0 ? named : TREES) {
    program.addCommand(outlineOnly && named.length === 0 && tree.summary !== undefined ? outline(tree) : tree.create());
  }
}
