/** Financial settings: the shared record operations, no extra rules. */
import { NOUNS } from '../../contract/wording.js';
import { recordHandlers } from './accounting-records.js';

export const settingHandlers = recordHandlers({
  collection: 'settings',
  noun: NOUNS.settings,
  typeName: 'SystemFinancialSettingDto',
});
