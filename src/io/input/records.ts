import { recordIdOf } from '../../contract/ids.js';
import { UsageError } from '../../errors.js';
import { createBadRowHandler, type BadRowHandler, type InputStats } from './bad-rows.js';
import { IdScan } from './duplicate-ids.js';
import { isExponentNotation, notAnIdReason } from './not-an-id.js';
import { dropRejectFields, isRecord, jsonType, RAW_FIELD } from './record.js';
import { HeldRecords } from './spool.js';
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

type RecordItem = SourceItem<Record<string, unknown>>;

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : (jsonText(value) ?? jsonType(value));
}

/**
 * The records among `values`, each checked once: not an object, or an unfixed
 * row of a rejects file, is a bad row; with `recordIds` the `id` field is read by
 * the one id rule (contract/ids.ts): `"42"` is 42, an empty cell names none, and
 * `abc` or `12.5` refuse the row.
 */
async function* recordsOf(values: AsyncIterable<SourceItem<unknown>>, options: ReadOptions, badRow: BadRowHandler): AsyncGenerator<RecordItem> {
  for await (const item of values) {
    const { value, line } = item;
    if (!isRecord(value)) {
      badRow({ line, message: `expected a JSON object, got ${jsonType(value)}`, raw: jsonText(value) ?? '' });
      continue;
    }
    const unfixed = Object.hasOwn(value, RAW_FIELD) ? String(value[RAW_FIELD]) : undefined;
    dropRejectFields(value);
    if (unfixed !== undefined && Object.keys(value).length === 0) {
      badRow({ line, message: `an unreadable row from a rejects file, not fixed yet (write the record in place of its ${RAW_FIELD})`, raw: unfixed });
      continue;
    }
    if (options.recordIds) {
      // A csv cell keeps its text: Excel's `1.23E+15` reads as a number, but its last digits are lost.
      const text = item.cells?.id ?? (typeof value.id === 'string' ? value.id : undefined);
      const id = text !== undefined && isExponentNotation(text) ? 'unreadable' : recordIdOf(value.id);
      if (id === 'unreadable') {
        const message = text !== undefined && isExponentNotation(text) ? notAnIdReason(text) : `${describe(value.id)} is not an id: ids are positive integers`;
        badRow({ line, message, raw: jsonText(value) ?? '', record: value });
        continue;
      }
      if (value.id === '') delete value.id;
      else if (id !== 'none') value.id = id;
    }
    yield item as RecordItem;
  }
}

/**
 * Streams records from `--data JSON` or `--file F` (`-` = stdin): a json object or
 * array, ndjson, or csv. Each record is a JSON object; anything else (a number, an
 * array, a malformed line, a csv row with the wrong cell count) is a bad row: with
 * `strict` the first one throws `InputError` with its line, otherwise it is skipped,
 * counted in `stats` and passed to `onBadRow`. The fields a rejects file adds
 * (`_error`, `_line`, `_raw`) are dropped so a fixed rejects file can be fed
 * straight back; an unreadable row in it that is still only those is a bad row again.
 *
 * With `recordIds` (updates and upserts) ids follow the id rule, and records naming
 * the same id are decided before any is yielded (duplicate-ids.ts): the input is
 * read and parsed once, its records held for the later passes (spool.ts: in
 * memory up to 50,000; past that a file is read again, stdin kept in a temporary
 * file removed at the end).
 */
export function readRecords(source: { data?: string; file?: string }, options: ReadOptions = {}): CountedSource<Record<string, unknown>> {
  const stats: InputStats = { items: 0, badRows: 0, refused: 0, repeats: 0 };
  const badRow = createBadRowHandler(options, stats);
  return counted(stats, async function* () {
    if (source.data === undefined && source.file === undefined) throw new UsageError('no records given: use --data <json> or --file <path> (- for stdin)');
    const values = (handler = badRow) => (source.data !== undefined ? readDataValues(source.data) : readFileValues(source.file as string, options, handler));
    if (!options.recordIds) {
      for await (const item of recordsOf(values(), options, badRow)) {
        stats.items += 1;
        yield item;
      }
      return;
    }
    // A file too big to hold is read again (its bad rows said once); stdin is spooled.
    const spool = new HeldRecords({ spill: source.file === '-' });
    const silent: BadRowHandler = () => {};
    try {
      // The one read of the input: bad rows are reported here, before anything is sent; ids are noted as it goes.
      const ids = new IdScan();
      for await (const item of recordsOf(values(), options, badRow)) {
        ids.add(item);
        await spool.add(item);
      }
      await spool.close();
      const again = () => (spool.complete ? spool.read() : recordsOf(values(silent), { ...options, strict: false }, silent));
      const duplicates = await ids.finish(again);
      for await (const item of again()) {
        const verdict = duplicates.any ? duplicates.verdict(item.value, item.line) : { kind: 'only' as const };
        if (verdict.kind === 'ambiguous') {
          const others = verdict.lines.filter((line) => line !== item.line);
          badRow({
            line: item.line,
            message: `id ${String(item.value.id)} is also named on line${others.length > 1 ? 's' : ''} ${others.join(', ')} with other values: ambiguous, none of them is sent`,
            raw: jsonText(item.value) ?? '',
            record: item.value,
          });
          continue;
        }
        if (verdict.kind === 'repeat') {
          stats.repeats += 1;
          options.onRepeat?.({ line: item.line, of: verdict.of, id: String(item.value.id) });
          continue;
        }
        stats.items += 1;
        yield item;
      }
    } finally {
      await spool.remove();
    }
  });
}
