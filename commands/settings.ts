/** `pla settings` (alias `set`): system financial settings (spec 4.2). */
import { RESOURCE_VERBS } from '../src/contract/operations.js';
import { addRecordVerbs } from './record-verbs.js';
import { tree } from './tree.js';

/** Declares the `pla settings` tree: the shared record verbs. */
export function createSettingsCommand() {
  return addRecordVerbs(tree('settings').alias('set').description('system financial settings'), RESOURCE_VERBS.settings);
}
