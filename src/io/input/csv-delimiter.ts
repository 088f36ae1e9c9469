/**
 * Which character separates a csv's cells: spreadsheets write `,`, European
 * locales `;`, and "text (tab delimited)" exports a tab. The header line decides
 * (the one most used outside quotes), unless `--delimiter` says; a header that is
 * one column holding another separator is refused rather than read as one field
 * named `id;code;name`.
 */
import { UsageError } from '../../errors.js';
import type { CsvDelimiter } from './types.js';

export const CSV_DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];

const NAMES: Record<CsvDelimiter, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };

/** The first line of `text`, without its line break. */
export function firstLine(text: string): string {
  return /^[^\r\n]*/.exec(text)?.[0] ?? '';
}

/** How often each separator occurs in `line` outside quotes. */
function separatorCounts(line: string): Map<CsvDelimiter, number> {
  const counts = new Map<CsvDelimiter, number>(CSV_DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char as CsvDelimiter)) counts.set(char as CsvDelimiter, (counts.get(char as CsvDelimiter) ?? 0) + 1);
  }
  return counts;
}

/** `--delimiter` as typed: `,` `;`, `tab` or a tab character. */
export function parseDelimiter(text: string): CsvDelimiter {
  const value = text === 'tab' || text === '\\t' ? '\t' : text;
  if (!CSV_DELIMITERS.includes(value as CsvDelimiter)) throw new UsageError(`--delimiter takes , ; or tab, not ${JSON.stringify(text)}`);
  return value as CsvDelimiter;
}

/** The separator of a csv whose header line is `header`: `given`, else the one the header uses most (`,` when none). */
export function chooseDelimiter(header: string, given?: CsvDelimiter): CsvDelimiter {
  const counts = separatorCounts(header);
  let chosen: CsvDelimiter = given ?? ',';
  if (!given) for (const d of CSV_DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(chosen) ?? 0)) chosen = d;
  const other = CSV_DELIMITERS.find((d) => d !== chosen && (counts.get(d) ?? 0) > 0);
  if ((counts.get(chosen) ?? 0) === 0 && other) {
    throw new UsageError(
      `the csv header ${JSON.stringify(header)} is one column when cut at ${NAMES[chosen]}s, and holds ${NAMES[other]}s: the wrong delimiter?`,
      {
        hint: `pass --delimiter ${other === '\t' ? 'tab' : `'${other}'`} if the file is separated by ${NAMES[other]}s`,
      },
    );
  }
  return chosen;
}
