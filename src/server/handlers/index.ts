/**
 * The handler of every contract operation, keyed by operation id. A test checks
 * that each row of the contract table has one.
 */
import type { OperationHandler } from '../context.js';
import { determinationHandlers } from './determinations.js';
import { emailNotificationHandlers } from './email-notifications.js';
import { imageHandlers } from './images.js';
import { notificationHandlers } from './notifications.js';
import { settingHandlers } from './settings.js';
import { taskHandlers } from './tasks.js';
import { topicHandlers } from './topics.js';

const BY_RESOURCE: Record<string, Record<string, OperationHandler>> = {
  determinations: determinationHandlers,
  settings: settingHandlers,
  tasks: taskHandlers,
  notifications: notificationHandlers,
  'email-notifications': emailNotificationHandlers,
  images: imageHandlers,
  topics: topicHandlers,
};

/** The handler of an operation id (`<resource>.<verb>`), if there is one. */
export function handlerFor(operationId: string): OperationHandler | undefined {
  const dot = operationId.indexOf('.');
  return BY_RESOURCE[operationId.slice(0, dot)]?.[operationId.slice(dot + 1)];
}
