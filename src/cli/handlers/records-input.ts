/** Records from `--data JSON` or `--file F|-`, and whether there is one or several. */
import type { CsvDelimiter, InputFormat, RepeatedRow, SourceItem } from '../../io/input/types.js';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../context.js';

type RecordItem = SourceItem<Record<string, unknown>>;

/** `--data`, `--file`, `--format`, `--raw`, `--strict` (commands/options.ts). */
export interface RecordInputOptions {
  data?: string;
  file?: string;
  format?: InputFormat;
  raw?: boolean;
  /** `--delimiter`: , ; or tab (parsed by io/input/csv-delimiter.ts). */
  delimiter?: string;
  strict?: boolean;
}

/** Either the only record, or a stream of all of them (the first two already read). */
export type RecordInput =
  | {
      single: Record<string, unknown>;
      cells?: Record<string, string>;
      /** The line it was read from (1 for `--data`). */
      line: number;
      /** Read from `--file`: a file's one record goes the way its many would (the bulk runner), with its line. */
      fromFile: boolean;
    }
  | { many: AsyncIterable<RecordItem> };

/**
 * Reads the records, stopping after the second so a big file still streams. With
 * `recordIds` (updates and upserts of records) ids follow the one id rule and
 * duplicate ids are decided before anything is sent (io/input/records.ts).
 */
export async function readRecordInput(ctx: CommandContext<RecordInputOptions>, options: { recordIds?: boolean } = {}): Promise<RecordInput> {
  const { data, file } = ctx.opts;
  if (data === undefined && file === undefined) {
    throw new UsageError('no records given', { hint: 'pass --data \'{"field": "value"}\' or --file records.json (- for stdin)' });
  }
  if (data !== undefined && file !== undefined) throw new UsageError('pass either --data or --file, not both');
  const [{ readRecords }, { BadRowRelay }, { parseDelimiter }] = await Promise.all([
    import('../../io/input/index.js'),
    import('../../io/input/bad-rows.js'),
    import('../../io/input/csv-delimiter.js'),
  ]);
  // Unreadable and refused rows go to the bulk runner (a warning above its bar,
  // and the rejects file).
  const badRows = new BadRowRelay();
  // Rows repeating an earlier one exactly: a plan lists them too.
  const repeats: RepeatedRow[] = [];
  // The separator a csv is read with: its rejects are written with it.
  let csvDelimiter: CsvDelimiter | undefined;
  const records = readRecords(
    { data, file },
    {
      format: ctx.opts.format,
      raw: ctx.opts.raw === true,
      csvRaw: ctx.opts.csvRaw === true,
      ...(typeof ctx.opts.delimiter === 'string' ? { delimiter: parseDelimiter(ctx.opts.delimiter) } : {}),
      ...(options.recordIds ? { recordIds: true } : {}),
      onCsvDelimiter: (delimiter) => (csvDelimiter = delimiter),
      onRepeat: (repeat) => {
        repeats.push(repeat);
        ctx.warn(`line ${repeat.line} repeats line ${repeat.of} (id ${repeat.id}, the same values): sent once`);
      },
      // Inline --data is one value the user just typed: a bad record there is an
      // error to fix, not a row to skip.
      strict: ctx.opts.strict === true || data !== undefined,
      stdin: ctx.io.stdin,
      onBadRow: (row) => badRows.send(row),
    },
  );
  const iterator = records[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done && records.stats.badRows + records.stats.refused === 0) throw new UsageError('the input holds no records');
  const second = await iterator.next();
  // One record alone is sent by the single call; with rows unreadable, refused or
  // repeated beside it, it goes through the bulk runner, which keeps them in the
  // rejects file and the summary (and a plan lists them).
  if (second.done && records.stats.badRows + records.stats.refused + records.stats.repeats === 0)
    return { single: first.value.value, ...(first.value.cells ? { cells: first.value.cells } : {}), line: first.value.line, fromFile: file !== undefined };
  const many = (async function* () {
    try {
      if (first.done) return;
      yield first.value;
      if (second.done) return;
      yield second.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      // A run that stops before the input's end closes the file it reads (left to the
      // garbage collector, a FileHandle warns, DEP0137, and throws on Node 26).
      await iterator.return?.();
    }
  })();
  // The bulk runner reads the reader's counters from `stats` and takes its bad rows from `badRows`.
  return { many: Object.assign(many, { stats: records.stats, badRows, repeats, csvDelimiter: () => csvDelimiter }) };
}
