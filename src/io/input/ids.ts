import { createBadRowHandler, type InputStats } from './bad-rows.js';
import { sniffFormat } from './format.js';
import { isRecord, jsonType } from './record.js';
import { counted, type CountedSource } from './records.js';
import { parseId, type RecordId, typedIds } from './typed-ids.js';
import type { IdReadOptions } from './types.js';
import { readFileValues, type ValueFormat } from './values.js';
import { jsonText } from '../../json/json-text.js';

/** An id file whose first value starts with a digit is plain text, one id a line. */
function sniffIdFormat(head: string): ValueFormat {
  return /^\uFEFF?\s*\d/.test(head) ? 'lines' : sniffFormat(head);
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : ((jsonText(value) as string | undefined) ?? jsonType(value));
}

/**
 * Streams ids from positional arguments, `--ids 1,2,3` and `--ids-file F|-` (in
 * that order). An ids file is one id a line, or json/ndjson/csv whose `idField`
 * (default `id`) holds the id; a json array may also hold bare ids. Ids must be
 * positive integers: a bad one typed on the command line is a `UsageError`, a bad
 * one in a file is a bad row with its line (skipped, or `InputError` with `strict`).
 */
export function readIds(source: { ids?: string[]; idsOption?: string; idsFile?: string }, options: IdReadOptions = {}): CountedSource<RecordId> {
  const stats: InputStats = { items: 0, badRows: 0, refused: 0, repeats: 0 };
  const badRow = createBadRowHandler(options, stats);
  const field = options.idField ?? 'id';
  return counted(stats, async function* () {
    const typed = typedIds([...(source.ids ?? []), ...(source.idsOption ?? '').split(',')]);
    for (const [index, id] of typed.entries()) {
      stats.items += 1;
      yield { value: id, line: index + 1 };
    }
    if (source.idsFile === undefined) return;
    for await (const { value, line } of readFileValues(source.idsFile, options, badRow, sniffIdFormat)) {
      const candidate = isRecord(value) ? value[field] : value;
      const id = parseId(candidate);
      if (id === undefined) {
        const what = isRecord(value) && candidate === undefined ? `no '${field}' field` : `${describe(candidate)} is not an id (a positive integer)`;
        badRow({ line, message: what, raw: (jsonText(value) as string | undefined) ?? '' });
        continue;
      }
      stats.items += 1;
      yield { value: id, line };
    }
  });
}
