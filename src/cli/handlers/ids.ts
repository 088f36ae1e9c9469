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
 * An id named twice is acted on once, and the repeat said on stderr.
 */
export function collectIds(ctx: CommandContext<IdOptions>, positional: readonly string[]): Promise<RecordId[]>;
export function collectIds(ctx: CommandContext<IdOptions>, positional: readonly string[], options: { text: boolean }): Promise<Array<RecordId | string>>;
export async function collectIds(
  ctx: CommandContext<IdOptions>,
  positional: readonly string[],
  options: { text?: boolean } = {},
): Promise<Array<RecordId | string>> {
  const ids: Array<RecordId | string> = [];
  // Where each id was first named, so a repeat is acted on once and said with both places.
  const firstNamed = new Map<string, string>();
  let repeats = 0;
  const add = (id: RecordId | string, where: string) => {
    const first = firstNamed.get(String(id));
    if (first !== undefined) {
      repeats += 1;
      ctx.warn(`id ${String(id)} named again (${where}; first ${first}): sent once`);
      return;
    }
    firstNamed.set(String(id), where);
    ids.push(id);
  };
  const source = {
    ids: positional,
    idsOption: ctx.opts.ids,
    idsFile: ctx.opts.idsFile,
  };
  // The readers (csv, streaming json) load only when there is a file to read.
  const typed = [...source.ids, ...(source.idsOption ?? '').split(',')];
  const typedAsGiven = options.text ? typed.map((text) => text.trim()).filter((text) => text !== '') : typedIds(typed);
  for (const id of typedAsGiven) add(id, 'on the command line');
  if (source.idsFile !== undefined) {
    const { readIds } = await import('../../io/input/index.js');
    const fileOnly = { idsFile: source.idsFile };
    for await (const item of readIds(fileOnly, { idField: ctx.opts.idField, strict: true, stdin: ctx.io.stdin }))
      add(item.value, `line ${item.line} of ${source.idsFile}`);
  }
  if (ids.length === 0) throw new UsageError('no ids given', { hint: 'pass ids as arguments, --ids 1,2,3 or --ids-file FILE' });
  if (repeats > 0) ctx.warn(`${repeats} repeated ${repeats === 1 ? 'id' : 'ids'} left out: each id is acted on once`);
  return ids;
}

/** Ids as the items a bulk run takes. */
export async function* idItems<T>(ids: readonly T[]): AsyncIterable<{ value: T; line: number }> {
  let line = 0;
  for (const id of ids) yield { value: id, line: ++line };
}
