/** Financial settings: the shared record operations, no extra rules. */
import type { OperationHandler } from '../context.js';
import { recordHandlers } from './accounting-records.js';

export const settingHandlers: Record<string, OperationHandler> = recordHandlers({
  collection: 'settings',
  noun: 'setting',
  typeName: 'SystemFinancialSettingDto',
});
