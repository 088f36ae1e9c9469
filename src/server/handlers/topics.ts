/** Topics are read-only seed data: the list is every topic of a service, in id order. */
import type { OperationHandler } from '../context.js';

export const topicHandlers: Record<string, OperationHandler> = {
  list: ({ params }, { store }) => ({ data: store.findBy('topics', 'service', params.service) }),
};
