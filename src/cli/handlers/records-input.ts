/** Records from `--data JSON` or `--file F|-`, and whether there is one or several. */
import type { InputFormat, SourceItem } from '../../io/input/types.js';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../context.js';

type RecordItem = SourceItem<Record<string, unknown>>;

/** `--data`, `--file`, `--format`, `--raw`, `--strict` (commands/options.ts). */
export interface RecordInputOptions {
  data?: string;
  file?: string;
  format?: InputFormat;
  raw?: boolean;
  strict?: boolean;
}

/** Either the only record, or a stream of all of them (the first two already read). */
export type RecordInput = { single: Record<string, unknown> } | { many: AsyncIterable<RecordItem> };

/** Reads the records, stopping after the second so a big file still streams. */
export async function readRecordInput(ctx: CommandContext<RecordInputOptions>): Promise<RecordInput> {
  const { data, file } = ctx.opts;
  if (data === undefined && file === undefined) {
    throw new UsageError('no records given', { hint: 'pass --data \'{"field": "value"}\' or --file records.json (- for stdin)' });
  }
  if (data !== undefined && file !== undefined) throw new UsageError('pass either --data or --file, not both');
  const [{ readRecords }, { BadRowRelay }] = await Promise.all([import('../../io/input/index.js'), import('../../io/input/bad-rows.js')]);
  // Unreadable rows go to the bulk runner (a warning above its bar, and the
  // rejects file); with one record there is no run, so they are just said.
  const badRows = new BadRowRelay();
  const records = readRecords(
    { data, file },
    {
      format: ctx.opts.format,
      raw: ctx.opts.raw === true,
      csvRaw: ctx.opts.csvRaw === true,
      // Inline --data is one value the user just typed: a bad record there is an
      // error to fix, not a row to skip.
      strict: ctx.opts.strict === true || data !== undefined,
      stdin: ctx.io.stdin,
      onBadRow: (row) => badRows.send(row),
    },
  );
  const sayBadRows = () => badRows.listen((row) => ctx.warn(`skipped line ${row.line}: ${row.message}`));
  const iterator = records[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) {
    sayBadRows();
    throw new UsageError('the input holds no records');
  }
  const second = await iterator.next();
  if (second.done) {
    sayBadRows();
    return { single: first.value.value };
  }
  const many = (async function* () {
    yield first.value;
    yield second.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  // The bulk runner reads the reader's counters from `stats` and takes its bad rows from `badRows`.
  return { many: Object.assign(many, { stats: records.stats, badRows }) };
}
