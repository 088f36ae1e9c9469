/** `pla settings` (alias `set`): system financial settings (spec 4.2). */
import { RESOURCE_VERBS } from '../src/contract/operations.js';
import { Command } from 'commander';
import { addRecordVerbs } from './record-verbs.js';

/** Declares the `pla settings` tree: the shared record verbs. */
export function createSettingsCommand(): Command {
  const tree = new Command('settings').alias('set').description('system financial settings');
  return addRecordVerbs(tree, RESOURCE_VERBS.settings);
}
