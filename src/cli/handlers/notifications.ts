/** Notification verbs beyond the shared ones: the count variants and `clear`. */
import type { CallOptions } from '../../client/types.js';
import type { OperationId } from '../../contract/operations.js';
import { UsageError } from '../../errors.js';
import { withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import type { FilterOptions } from '../../contract/list-filters.js';
import { listFiltered, listPaged, type PagingOptions } from './paged.js';
import { present } from './present.js';
import { confirmDestructive, requestLine, type SafetyOptions } from './safety.js';
import { confirmedWrite } from './single-write.js';

/** `count <user> [--unread | --by-type | --mobile]`: one of the three count endpoints. */
export function count(invocation: Invocation<[user: string], { unread?: boolean; byType?: boolean; mobile?: boolean }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [user] = ctx.args;
    const { unread, byType, mobile } = ctx.opts;
    if ([unread, byType, mobile].filter(Boolean).length > 1) throw new UsageError('pick one of --unread, --by-type, --mobile');
    const [operationId, call]: [OperationId, CallOptions] = byType
      ? ['notifications.countByType', { params: { username: user } }]
      : mobile
        ? ['notifications.countMobile', { params: { userName: user } }]
        : ['notifications.count', { params: { userName: user }, query: unread ? { unread: true } : {} }];
    await present(ctx, operationId, await (await ctx.client()).call(operationId, { ...call, signal: ctx.signal }), 'done');
  });
}

/** `list <user> [--mobile]`. */
export function list(invocation: Invocation<[user: string], Omit<PagingOptions, 'sort'> & FilterOptions & { mobile?: boolean }>): Promise<void> {
  return withContext(invocation, (ctx) =>
    listFiltered(ctx, 'notifications.list', ctx.opts.mobile ? 'notifications.listMobile' : 'notifications.list', { params: { userName: ctx.args[0] } }),
  );
}

/** `clear <user>`: deletes every notification of a user, after confirmation. */
export function clear(invocation: Invocation<[user: string], SafetyOptions>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const [user] = ctx.args;
    if (ctx.opts.dryRun) {
      await listPaged(ctx, 'notifications.list', { params: { userName: user } });
      const { env } = await ctx.connection();
      ctx.note(
        `dry run: would delete every notification of ${user} on ${env} (${requestLine('notifications.deleteAll', { userName: user })}); nothing was changed`,
      );
      return;
    }
    await confirmDestructive(ctx, `Delete every notification of ${user}`);
    // Confirmed as every write: an answer that does not say done is of unknown outcome (there is no read to check it by).
    const result = await confirmedWrite(ctx, 'notifications.deleteAll', { params: { userName: user } }, user);
    await present(ctx, 'notifications.deleteAll', result, `deleted every notification of ${user}`);
  });
}
