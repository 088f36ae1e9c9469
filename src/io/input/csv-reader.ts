import type { Readable } from 'node:stream';
import { CsvError, parse, type Parser } from 'csv-parse';
import { InputError } from '../../errors.js';
import type { BadRowHandler } from './bad-rows.js';
import { typeRecord, unguardFormula, unguardRecord } from './csv-cells.js';
import type { SourceItem } from './types.js';

/** Runs `type` (typing one row's cells); an `InputError` it throws gets the row's line. */
function typedAt(line: number, type: () => void): void {
  try {
    type();
  } catch (error) {
    if (error instanceof InputError && error.line === undefined) throw new InputError(error.message, line, { cause: error });
    throw error;
  }
}

interface CsvRow {
  record: Record<string, unknown>;
  raw: string;
}

function newlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}

/**
 * Streams csv records: the header row names the fields; cells are typed
 * (`typeRecord`) unless `raw`; a formula guard (`'=…`, csv-cells.ts) is removed
 * from cells and header names unless `csvRaw`. A row with the wrong number of cells is a bad row;
 * csv-parse skips it and reports it through `on_skip`.
 *
 * Lines are counted from each record's raw text (which includes blank lines
 * skipped before it) rather than csv-parse's `info`, which copies its whole state
 * for every record.
 */
export async function* readCsvRecords(input: Readable, options: { raw?: boolean; csvRaw?: boolean; strict?: boolean }, badRow: BadRowHandler): AsyncGenerator<SourceItem<Record<string, unknown>>> {
  // Lines consumed so far: the header, then every record and skipped row.
  let consumed = 1;
  const guarded = options.csvRaw !== true;
  // Skipped rows, noted while parsing (which runs ahead of this reader) with how
  // many records came before them, so their lines are counted in order.
  const skips: Array<{ after: number; lines: number }> = [];
  const parser: Parser = input.pipe(
    parse({
      bom: true,
      columns: guarded ? (names: string[]) => names.map(unguardFormula) : true,
      raw: true,
      skip_empty_lines: true,
      skip_records_with_error: !options.strict,
      on_skip: (error, raw) => {
        const text = raw ?? '';
        skips.push({ after: parser.info.records, lines: newlines(text) });
        badRow({ line: Number(error?.lines) || consumed, message: error?.message ?? 'unreadable row', raw: text.replace(/^[\r\n]+/, '') });
        return undefined;
      },
    }),
  );
  input.on('error', (error) => parser.destroy(error));
  try {
    let records = 0;
    for await (const row of parser as AsyncIterable<CsvRow>) {
      while (skips.length > 0 && (skips[0]?.after ?? Infinity) <= records) consumed += skips.shift()?.lines ?? 0;
      records += 1;
      const line = consumed + 1 + newlines(row.raw.match(/^[\r\n]*/)?.[0] ?? '');
      consumed += newlines(row.raw);
      if (!options.raw) typedAt(line, () => typeRecord(row.record, row.raw, guarded));
      else if (guarded) unguardRecord(row.record);
      yield { value: row.record, line };
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (error instanceof CsvError) throw new InputError(`bad csv (${error.message})`, Number(error.lines ?? 0) || undefined, { cause: error });
    throw error;
  } finally {
    parser.destroy();
  }
}
