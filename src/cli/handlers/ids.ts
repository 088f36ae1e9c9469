/** Ids from positional arguments, `--ids 1,2,3` or `--ids-file F|-`. */
import { UsageError } from '../../errors.js';
import type { BadRow, SourceItem } from '../../io/input/types.js';
import { type RecordId, typedIds } from '../../io/input/typed-ids.js';
import type { CommandContext } from '../context.js';

/** `--ids`, `--ids-file`, `--id-field` (commands/options.ts). */
export interface IdOptions {
  ids?: string;
  idsFile?: string;
  idField?: string;
}

/** The ids of a command, each once, with where it was read, and the rows of the ids file that name no id. */
export interface IdRows<T> {
  /** Each id once, in order; `line` is its ids file's line, or its place among the ids typed. */
  items: Array<SourceItem<T>>;
  /** Rows of the ids file refused before anything is sent (`abc`, `12.5`, `1E+15`, an empty line between ids). */
  problems: BadRow[];
}

/**
 * Reads every id (ids are small: even a million fit comfortably in memory). With
 * `text`, for operations whose id the spec types "integer(int64) or string"
 * (notifications), typed ids go to the service as written: it judges them, not pla.
 * An id named twice is acted on once, and the repeat said on stderr. A bad id
 * typed on the command line is a usage error (nothing has been sent); a bad row
 * of the ids file is one of `problems` (with `strict`, an `InputError`).
 */
export async function collectIdRows<T extends RecordId | string>(
  ctx: CommandContext<IdOptions>,
  positional: readonly string[],
  options: { text?: boolean; strict?: boolean } = {},
): Promise<IdRows<T>> {
  const items: Array<SourceItem<T>> = [];
  const problems: BadRow[] = [];
  // Where each id was first named, so a repeat is acted on once and said with both places.
  const firstNamed = new Map<string, string>();
  let repeats = 0;
  const add = (id: T, where: string, line: number) => {
    const first = firstNamed.get(String(id));
    if (first !== undefined) {
      repeats += 1;
      ctx.warn(`id ${String(id)} named again (${where}; first ${first}): sent once`);
      return;
    }
    firstNamed.set(String(id), where);
    items.push({ value: id, line });
  };
  // The readers (csv, streaming json) load only when there is a file to read.
  const typed = [...positional, ...(ctx.opts.ids ?? '').split(',')];
  const typedAsGiven = options.text ? typed.map((text) => text.trim()).filter((text) => text !== '') : typedIds(typed);
  for (const [index, id] of typedAsGiven.entries()) add(id as T, 'on the command line', index + 1);
  const file = ctx.opts.idsFile;
  if (file !== undefined) {
    const { readIds } = await import('../../io/input/index.js');
    const read = readIds(
      { idsFile: file },
      { idField: ctx.opts.idField, strict: options.strict === true, stdin: ctx.io.stdin, onBadRow: (row) => problems.push(row) },
    );
    for await (const item of read) add(item.value as T, `line ${item.line} of ${file}`, item.line);
  }
  if (items.length === 0 && problems.length === 0) throw new UsageError('no ids given', { hint: 'pass ids as arguments, --ids 1,2,3 or --ids-file FILE' });
  if (repeats > 0) ctx.warn(`${repeats} repeated ${repeats === 1 ? 'id' : 'ids'} left out: each id is acted on once`);
  return { items, problems };
}

/** The ids of a command that reads records by them (get, tasks): a bad id anywhere stops it before anything is read. */
export function collectIds(ctx: CommandContext<IdOptions>, positional: readonly string[]): Promise<RecordId[]>;
export function collectIds(ctx: CommandContext<IdOptions>, positional: readonly string[], options: { text: boolean }): Promise<Array<RecordId | string>>;
export async function collectIds(
  ctx: CommandContext<IdOptions>,
  positional: readonly string[],
  options: { text?: boolean } = {},
): Promise<Array<RecordId | string>> {
  const { items } = await collectIdRows<RecordId | string>(ctx, positional, { ...options, strict: true });
  return items.map((item) => item.value);
}

/**
 * Ids as the items a bulk run takes, each with its line; the ids file's refused
 * rows ride along for the bulk runner (`badRows`: a warning, the rejects file,
 * exit 9), as a records reader hands them.
 */
export async function idSource<T>(rows: IdRows<T>): Promise<AsyncIterable<SourceItem<T>>> {
  const { BadRowRelay } = await import('../../io/input/bad-rows.js');
  const badRows = new BadRowRelay();
  for (const row of rows.problems) badRows.send(row);
  const refused = rows.problems.filter((row) => row.record !== undefined).length;
  const stats = { items: rows.items.length, badRows: rows.problems.length - refused, refused, repeats: 0 };
  const items = (async function* () {
    yield* rows.items;
  })();
  return Object.assign(items, { stats, badRows });
}
