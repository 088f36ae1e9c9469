/** Topics are read-only seed data: the list is every topic of a service, in id order. */
import type { OperationHandler } from '../context.js';

export const topicHandlers = {
  list: async ({ params }, { store }) => ({ data: await store.find('topics', { where: [{ field: 'service', equals: params.service }] }) }),
} satisfies Record<string, OperationHandler>;
