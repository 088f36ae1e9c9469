import { UsageError } from '../../errors.js';
import { createBadRowHandler, type BadRowHandler, type InputStats } from './bad-rows.js';
import { chooseDelimiter, firstLine } from './csv-delimiter.js';
import { sniffFormat } from './format.js';
import { notAnIdReason } from './not-an-id.js';
import { isRecord, jsonType } from './record.js';
import { counted, type CountedSource } from './records.js';
import { parseId, type RecordId, typedIds } from './typed-ids.js';
import type { IdReadOptions } from './types.js';
import { readFileValues, type Sniff, type ValueFormat } from './values.js';
import { jsonText } from '../../json/json-text.js';

/** A line a person may have meant as an id: digits, perhaps signed, with decimals or an exponent (`-3`, `12.5`, `1E+15`). */
const ID_LIKE = /^[+-]?[\d.,]+(?:[eE][+-]?\d+)?$/;

/** A header cell as written: quotes and surrounding spaces off. */
function headerName(cell: string): string {
  const trimmed = cell.trim();
  return /^".*"$/.test(trimmed) ? trimmed.slice(1, -1).replace(/""/g, '"').trim() : trimmed;
}

/** Whether a header cell names `field`: case and surrounding spaces aside (`ID`, `id `). */
export function namesField(cell: string, field: string): boolean {
  return headerName(cell).toLowerCase() === field.toLowerCase();
}

/**
 * How an ids file is read, from what its first line holds (an extension naming
 * json or ndjson decides alone): a JSON start is json or ndjson; an id-like first
 * line is plain text, one id a line; a first line that is the id field's name
 * alone is that text's header; a first line with separators is a csv header,
 * which must have the id column. Anything else is refused with what was seen,
 * rather than read so that every row says "no 'id' field" (or, worse, that a
 * column of other numbers under another header is taken for ids).
 */
function idSniffer(field: string, what: string, onHeader: () => void): Sniff {
  return (head, byName): ValueFormat => {
    if (byName === 'json' || byName === 'ndjson') return byName;
    const text = head.replace(/^\uFEFF/, '').replace(/^\s+/, '');
    if (/^[[{]/.test(text)) return sniffFormat(text);
    const line = firstLine(text).trim();
    if (ID_LIKE.test(line)) return 'lines';
    if (namesField(line, field)) {
      onHeader();
      return 'lines';
    }
    const delimiter = chooseDelimiter(line);
    const cells = line.split(delimiter);
    if (cells.length > 1) {
      if (cells.some((cell) => namesField(cell, field))) return 'csv';
      throw new UsageError(`${what} reads as csv with the columns ${cells.map(headerName).join(', ')}: none of them is '${field}'; nothing was sent`, {
        hint: `name the column holding the ids with --id-field NAME, or give the ids one a line`,
      });
    }
    throw new UsageError(`${what} starts with ${JSON.stringify(line)}: neither an id nor an '${field}' header, so it is not read as ids; nothing was sent`, {
      hint: `if it is a column of ids headed ${JSON.stringify(line)}, pass --id-field ${JSON.stringify(headerName(line))}; else give the ids one a line`,
    });
  };
}

function describe(value: unknown): string {
  return typeof value === 'string' ? notAnIdReason(value) : `${(jsonText(value) as string | undefined) ?? jsonType(value)} is not an id (a positive integer)`;
}

/** The value of `field` in a record read from a file, its name's case and spaces aside (a csv header `ID `). */
function fieldOf(record: Record<string, unknown>, field: string): unknown {
  if (Object.hasOwn(record, field)) return record[field];
  const key = Object.keys(record).find((name) => namesField(name, field));
  return key === undefined ? undefined : record[key];
}

/**
 * Streams ids from positional arguments, `--ids 1,2,3` and `--ids-file F|-` (in
 * that order). An ids file is one id a line (perhaps under an `id` header), or
 * json/ndjson/csv whose `idField` (default `id`) holds the id; a json array may
 * also hold bare ids. Ids must be positive integers: a bad one typed on the
 * command line is a `UsageError`; in a file it is a refused row with its line
 * (`abc`, `12.5`, `-3`, Excel's `1E+15`, an empty line between ids): skipped and
 * reported, or `InputError` with `strict`. Csv cells are read as text, so `0042`
 * is 42 and `1E+15` is refused, not read as 10^15.
 */
export function readIds(source: { ids?: string[]; idsOption?: string; idsFile?: string }, options: IdReadOptions = {}): CountedSource<RecordId> {
  const stats: InputStats = { items: 0, badRows: 0, refused: 0, repeats: 0 };
  const badRow: BadRowHandler = createBadRowHandler(options, stats);
  const field = options.idField ?? 'id';
  return counted(stats, async function* () {
    const typed = typedIds([...(source.ids ?? []), ...(source.idsOption ?? '').split(',')]);
    for (const [index, id] of typed.entries()) {
      stats.items += 1;
      yield { value: id, line: index + 1 };
    }
    const file = source.idsFile;
    if (file === undefined) return;
    let header = false;
    const sniff = idSniffer(field, file === '-' ? 'the ids on stdin' : `the ids file ${file}`, () => (header = true));
    // Blank lines between ids: refused once a later id shows they were not the file's end.
    const blanks: number[] = [];
    let seen = false;
    for await (const { value, line } of readFileValues(file, { ...options, raw: true }, badRow, sniff)) {
      if (value === '') {
        if (seen) blanks.push(line);
        continue;
      }
      if (header && !seen && typeof value === 'string') {
        seen = true;
        continue;
      }
      seen = true;
      for (const blank of blanks.splice(0)) badRow({ line: blank, message: notAnIdReason(''), raw: '', record: { [field]: '' } });
      const candidate = isRecord(value) ? fieldOf(value, field) : value;
      const id = parseId(candidate);
      if (id === undefined) {
        if (isRecord(value) && candidate === undefined) badRow({ line, message: `no '${field}' field`, raw: (jsonText(value) as string | undefined) ?? '' });
        else
          badRow({
            line,
            message: describe(candidate),
            raw: (jsonText(value) as string | undefined) ?? '',
            record: isRecord(value) ? value : { [field]: value },
          });
        continue;
      }
      stats.items += 1;
      yield { value: id, line };
    }
  });
}
