/** Ids from positional arguments, `--ids 1,2,3` or `--ids-file F|-`. */
import { UsageError } from '../../errors.js';
import { type RecordId, typedIds } from '../../io/input/typed-ids.js';
import type { CommandContext } from '../context.js';

/** `--ids`, `--ids-file`, `--id-field` (commands/options.ts). */
export interface IdOptions {
  ids?: string;
  idsFile?: string;
  idField?: string;
}

/**
 * Reads every id (ids are small: even a million fit comfortably in memory). With
 * `text`, for operations whose id the spec types "integer(int64) or string"
 * (notifications), typed ids go to the service as written: it judges them, not pla.
 */
export function collectIds(ctx: CommandContext<IdOptions>, positional: readonly string[]): Promise<RecordId[]>;
export function collectIds(ctx: CommandContext<IdOptions>, positional: readonly string[], options: { text: boolean }): Promise<Array<RecordId | string>>;
export async function collectIds(ctx: CommandContext<IdOptions>, positional: readonly string[], options: { text?: boolean } = {}): Promise<Array<RecordId | string>> {
  const ids: Array<RecordId | string> = [];
  const source = {
    ids: positional,
    idsOption: ctx.opts.ids,
    idsFile: ctx.opts.idsFile,
  };
  // The readers (csv, streaming json) load only when there is a file to read.
  const typed = [...source.ids, ...(source.idsOption ?? '').split(',')];
  if (options.text) ids.push(...typed.map((text) => text.trim()).filter((text) => text !== ''));
  else ids.push(...typedIds(typed));
  if (source.idsFile !== undefined) {
    const { readIds } = await import('../../io/input/index.js');
    const fileOnly = { idsFile: source.idsFile };
    for await (const item of readIds(fileOnly, { idField: ctx.opts.idField, strict: true, stdin: ctx.io.stdin })) ids.push(item.value);
  }
  if (ids.length === 0) throw new UsageError('no ids given', { hint: 'pass ids as arguments, --ids 1,2,3 or --ids-file FILE' });
  return ids;
}

/** Ids as the items a bulk run takes. */
export async function* idItems<T>(ids: readonly T[]): AsyncIterable<{ value: T; line: number }> {
  let line = 0;
  for (const id of ids) yield { value: id, line: ++line };
}
