/**
 * Lists filtered by pla itself, where the service takes no filter (determinations
 * by status or company, notifications read or unread): a page of N matches is what
 * `--size N` asks, as without a filter. pla reads the service's pages in order only
 * until that page of matches is full (a page of `--page P` skips the P·N matches
 * before it), and says on stderr when that took more than one page; `--all` and
 * `--max-items` read on to the end (or the cap). Every read goes through the client,
 * so a 429 is waited out as its `Retry-After` says.
 */
import type { CallOptions, PagesOptions } from '../../client/types.js';
import { operation, type OperationId } from '../../contract/operations.js';
import { NOUNS, counted } from '../../contract/wording.js';
import type { FilterOptions, ListFilter } from '../../contract/list-filters.js';
import { UsageError } from '../../errors.js';
import { asRow, fieldValue } from '../../io/output/fields.js';
import { createRowWriter } from '../../io/output/index.js';
import { startSpinner } from '../../io/output/spinner.js';
import type { Row } from '../../io/output/types.js';
import { writeLine } from '../../io/streams.js';
import type { CommandContext } from '../context.js';
import type { PagingOptions } from './paging-options.js';

/** A filter flag given on the command line: its field and the values that match. */
export interface ChosenFilter {
  field: string;
  anyOf: unknown[];
}

/**
 * The filters given, each with the values it matches; a value pla does not know the
 * service to use (`--status BOGUS`) is kept, with a note naming the known ones.
 */
export function chosenFilters(opts: Readonly<FilterOptions>, filters: readonly ListFilter[], note: (line: string) => void): ChosenFilter[] {
  const chosen = filters.flatMap((filter): ChosenFilter[] => {
    const given = opts[filter.flag];
    if (given === undefined || given === false) return [];
    if (given === true) return [{ field: filter.field, anyOf: [filter.equals] }];
    const values = given.map((v) => (filter.values?.upper ? v.toUpperCase() : v));
    const known = filter.values?.known;
    const unknown = known ? values.filter((v) => !known.includes(v)) : [];
    if (known && unknown.length > 0)
      note(
        `note: --${filter.flag} ${unknown.join(',')}: not a ${filter.field} pla knows; the known ones are ${known.join(', ')} (filtering by it all the same)`,
      );
    return [{ field: filter.field, anyOf: values }];
  });
  const twice = chosen.find((c, i) => chosen.findIndex((other) => other.field === c.field) !== i);
  if (twice) throw new UsageError(`two filters on ${twice.field} exclude each other`, { hint: 'give one of them' });
  return chosen;
}

/** What a scan read, for the notes and the footer. */
interface Scan {
  pages: number;
  records: number;
  matches: number;
}

/** The note a scan of more than one page leaves on stderr: what pla read to find its matches. */
function scanNote(operationId: OperationId, chosen: readonly ChosenFilter[], scan: Scan, shown: string): string {
  const noun = NOUNS[operation(operationId).resource];
  const fields = chosen.map((c) => c.field).join(' and ');
  return `note: the service cannot filter ${noun[1]} by ${fields}: pla read ${counted(scan.pages, ['page', 'pages'])} (${counted(scan.records, noun)}) for ${shown}`;
}

/**
 * Lists `operationId`, keeping only the records every filter of `chosen` matches:
 * one page of matches, or every match with `--all` / up to `--max-items`.
 */
export async function listFilteredByPla(
  ctx: CommandContext<PagingOptions>,
  operationId: OperationId,
  call: Omit<CallOptions, 'paging'>,
  chosen: readonly ChosenFilter[],
): Promise<void> {
  const keep = (row: Row) => chosen.every((c) => c.anyOf.includes(fieldValue(row, c.field)));
  const { page = 0, size = operation(operationId).paging?.defaultSize ?? 100, sort, all, maxItems } = ctx.opts;
  const everything = all === true || maxItems !== undefined;
  // Pages of the listing's default size at least: a --size 2 of sparse matches reads few pages, not many tiny ones.
  const scanSize = Math.max(size, operation(operationId).paging?.defaultSize ?? size);
  const options: PagesOptions = {
    ...call,
    paging: { size: everything && ctx.opts.size !== undefined ? ctx.opts.size : scanSize, ...(sort && sort.length > 0 ? { sort } : {}) },
    signal: ctx.signal,
    allowDrift: ctx.opts.allowDrift === true,
    notice: ctx.warn,
  };
  const client = await ctx.client();
  const writer = await createRowWriter({ ...ctx.output, strictFields: true });
  // The matches before the page asked (`--page P`), skipped; then the page's, or all of them.
  const skip = everything ? 0 : page * size;
  const wanted = everything ? (maxItems ?? Infinity) : size;
  const scan: Scan = { pages: 0, records: 0, matches: 0 };
  let shown = 0;
  /** Another match after the page's last: there is a next page (undefined: not known, the scan stopped). */
  let more: boolean | undefined = false;
  const spinner = await startSpinner('reading pages…', ctx.interactive && !everything, ctx.io.stderr);
  try {
    walk: for await (const current of client.pages(operationId, options)) {
      scan.pages += 1;
      for (const item of current.items) {
        scan.records += 1;
        const row = asRow(item);
        if (!keep(row)) continue;
        scan.matches += 1;
        if (scan.matches <= skip) continue;
        if (shown === wanted) {
          more = true;
          break walk;
        }
        await writer.write(row);
        shown += 1;
      }
      // The page is full and its last match was the last record read: whether more match is not known without reading on.
      if (shown === wanted && !current.last) {
        more = everything ? false : undefined;
        break;
      }
    }
  } finally {
    spinner.stop();
    await writer.end();
  }
  const noun = NOUNS[operation(operationId).resource];
  const shownText = everything ? counted(shown, ['match', 'matches']) : `page ${page + 1} of the matches (${counted(shown, ['match', 'matches'])})`;
  if (scan.pages > 1) ctx.note(scanNote(operationId, chosen, scan, shownText));
  if (everything || !ctx.interactive || ctx.output.quiet) return;
  // Counted from 1 for a person; the flag stays zero-based, as the service's pages are.
  const next = more === false ? '' : `; next${more ? '' : ' (if any)'}: --page ${page + 1}, every match: --all`;
  writeLine(ctx.io, `page ${page + 1} (--page ${page}): ${counted(shown, noun)} of ${counted(scan.records, ['record', 'records'])} read match${next}`);
}
