/** Ids from positional arguments, `--ids 1,2,3` or `--ids-file F|-`. */
import { UsageError } from '../../errors.js';
import { typedIds } from '../../io/input/typed-ids.js';
import type { CommandContext } from '../context.js';

/** Reads every id (ids are small: even a million fit comfortably in memory). */
export async function collectIds(ctx: CommandContext, positional: unknown): Promise<number[]> {
  const ids: number[] = [];
  const source = {
    ids: Array.isArray(positional) ? positional.map(String) : [],
    idsOption: ctx.opts.ids as string | undefined,
    idsFile: ctx.opts.idsFile as string | undefined,
  };
  // The readers (csv, streaming json) load only when there is a file to read.
  if (source.idsFile === undefined) ids.push(...typedIds([...source.ids, ...(source.idsOption ?? '').split(',')]));
  else {
    const { readIds } = await import('../../io/input/index.js');
    for await (const item of readIds(source, { idField: ctx.opts.idField as string | undefined, strict: true, stdin: ctx.io.stdin })) ids.push(item.value);
  }
  if (ids.length === 0) throw new UsageError('no ids given', { hint: 'pass ids as arguments, --ids 1,2,3 or --ids-file FILE' });
  return ids;
}

/** Ids as the items a bulk run takes. */
export async function* idItems(ids: readonly number[]): AsyncIterable<{ value: number; line: number }> {
  let line = 0;
  for (const id of ids) yield { value: id, line: ++line };
}
