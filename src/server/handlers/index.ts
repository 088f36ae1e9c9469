/**
 * The handler of every contract operation, keyed by operation id. The map is
 * checked by the compiler against the contract: a row without a handler, or a
 * handler for an operation the contract does not have, does not compile.
 */
import type { OperationId } from '../../contract/operations.js';
import type { OperationHandler } from '../context.js';
import { determinationHandlers } from './determinations.js';
import { emailNotificationHandlers } from './email-notifications.js';
import { imageHandlers } from './images.js';
import { notificationHandlers } from './notifications.js';
import { settingHandlers } from './settings.js';
import { taskHandlers } from './tasks.js';
import { topicHandlers } from './topics.js';

/** A resource's handlers keyed by verb (`{ get }`) as keyed by operation id (`{ 'tasks.get' }`), typed. */
function byOperationId<const R extends string, H extends Record<string, OperationHandler>>(resource: R, handlers: H) {
  return Object.fromEntries(Object.entries(handlers).map(([verb, handler]) => [`${resource}.${verb}`, handler])) as {
    [V in keyof H & string as `${R}.${V}`]: H[V];
  };
}

/** Every operation's handler. */
export const HANDLERS = {
  ...byOperationId('determinations', determinationHandlers),
  ...byOperationId('settings', settingHandlers),
  ...byOperationId('tasks', taskHandlers),
  ...byOperationId('notifications', notificationHandlers),
  ...byOperationId('email-notifications', emailNotificationHandlers),
  ...byOperationId('images', imageHandlers),
  ...byOperationId('topics', topicHandlers),
} satisfies Record<OperationId, OperationHandler>;

/** Fails to compile when a handler answers an operation the contract does not have. */
const noHandlerWithoutARow: [Exclude<keyof typeof HANDLERS, OperationId>] extends [never] ? true : never = true;
void noHandlerWithoutARow;
