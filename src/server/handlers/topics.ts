/** Topics are read-only seed data: the list is every topic of a service, in id order. */
import type { OperationHandler } from '../context.js';

export const topicHandlers = {
  list: ({ params }, { store }) => ({ data: store.findBy('topics', 'service', params.service) }),
} satisfies Record<string, OperationHandler>;
