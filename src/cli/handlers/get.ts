/**
 * `get <ids...>`: one id shows the record, several show rows. Its own module, so
 * the most common command loads nothing else (no input readers, no bulk runner).
 */
import { asRow } from '../../io/output/fields.js';
import { createRowWriter } from '../../io/output/index.js';
import { withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { collectIds, type IdOptions } from './ids.js';
import { forEachItem } from './per-item.js';
import { present } from './present.js';
import type { OperationId } from '../../contract/operations.js';

/** `get <ids...>`: one id shows the record, several show rows. */
export function get(invocation: Invocation<[ids: string[]], IdOptions>, operationId: OperationId): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const ids = await collectIds(ctx, ctx.args[0]);
    const client = await ctx.client();
    const only = ids.length === 1 ? ids[0] : undefined;
    if (only !== undefined) {
      return present(ctx, operationId, await client.call(operationId, { params: { id: only }, signal: ctx.signal }), `no record with id ${only}`);
    }
    const writer = await createRowWriter({ ...ctx.output, strictFields: true });
    await forEachItem(
      ids,
      (id) => `id ${id}`,
      async (id) => writer.write(asRow((await client.call(operationId, { params: { id }, signal: ctx.signal })).data)),
      { signal: ctx.signal, stderr: ctx.io.stderr },
    ).finally(() => writer.end());
  });
}
