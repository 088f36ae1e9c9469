/**
 * Financial settings: the shared record operations, no extra rules, except that
 * create is "creating or updating" (spec 4.2): a body whose `id` names an existing
 * setting updates it, as upsert does.
 */
import { RECORD_TYPE_NAMES } from '../../contract/schemas.js';
import { NOUNS } from '../../contract/wording.js';
import type { OperationHandler } from '../context.js';
import { recordHandlers } from './accounting-records.js';

const records = recordHandlers({
  collection: 'settings',
  noun: NOUNS.settings,
  typeName: RECORD_TYPE_NAMES.settings,
});

export const settingHandlers = { ...records, create: records.upsert } satisfies Record<string, OperationHandler>;
