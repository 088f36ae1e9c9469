import { UsageError } from '../../errors.js';
import { createBadRowHandler, type InputStats } from './bad-rows.js';
import { dropRejectFields, isRecord, jsonType, RAW_FIELD } from './record.js';
import type { ReadOptions, SourceItem } from './types.js';
import { readDataValues, readFileValues } from './values.js';
import { jsonText } from '../../json/json-text.js';

/** A stream of input items that also counts what it yielded and skipped. */
export interface CountedSource<T> extends AsyncIterable<SourceItem<T>> {
  readonly stats: InputStats;
}

/** A source over `generate`: each iteration reads the input afresh and counts into `stats`. */
export function counted<T>(stats: InputStats, generate: () => AsyncGenerator<SourceItem<T>>): CountedSource<T> {
  return { stats, [Symbol.asyncIterator]: generate };
}

/**
 * Streams records from `--data JSON` or `--file F` (`-` = stdin): a json object or
 * array, ndjson, or csv. Each record is a JSON object; anything else (a number, an
 * array, a malformed line, a csv row with the wrong cell count) is a bad row: with
 * `strict` the first one throws `InputError` with its line, otherwise it is skipped,
 * counted in `stats.badRows` and passed to `onBadRow`. The fields a rejects file
 * adds (`_error`, `_line`, `_raw`) are dropped so a fixed rejects file can be fed
 * straight back; an unreadable row in it that is still only those is a bad row again.
 */
export function readRecords(source: { data?: string; file?: string }, options: ReadOptions = {}): CountedSource<Record<string, unknown>> {
  const stats: InputStats = { items: 0, badRows: 0 };
  const badRow = createBadRowHandler(options, stats);
  return counted(stats, async function* () {
    let values: AsyncGenerator<SourceItem<unknown>>;
    if (source.data !== undefined) values = readDataValues(source.data);
    else if (source.file !== undefined) values = readFileValues(source.file, options, badRow);
    else throw new UsageError('no records given: use --data <json> or --file <path> (- for stdin)');
    for await (const item of values) {
      const { value, line } = item;
      if (!isRecord(value)) {
        badRow({ line, message: `expected a JSON object, got ${jsonType(value)}`, raw: (jsonText(value) as string | undefined) ?? '' });
        continue;
      }
      const unfixed = RAW_FIELD in value ? String(value[RAW_FIELD]) : undefined;
      dropRejectFields(value);
      if (unfixed !== undefined && Object.keys(value).length === 0) {
        badRow({ line, message: `an unreadable row from a rejects file, not fixed yet (write the record in place of its ${RAW_FIELD})`, raw: unfixed });
        continue;
      }
      stats.items += 1;
      yield item as SourceItem<Record<string, unknown>>;
    }
  });
}
