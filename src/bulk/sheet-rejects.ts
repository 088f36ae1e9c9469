/**
 * Rejects of a sheet (a csv or a workbook) in the sheet's own form, so a person
 * fixes them in the spreadsheet they came from and feeds the file back: the
 * input's header names and order as written, each cell's text exactly as read
 * (an exponent id stays `1.23E+15`, and stays refused), then the line, the reason
 * and, for a row that could not be read, its text.
 */
import { guardFormula } from '../io/input/csv-cells.js';
import { ERROR_FIELD, LINE_FIELD, RAW_FIELD } from '../io/input/record.js';
import type { SheetForm } from '../io/input/types.js';
import { jsonText } from '../json/json-text.js';

/** One row to write: the input's cells when it has them, else its record (a plan of an older pla). */
export interface SheetReject {
  row?: readonly string[];
  value?: unknown;
  line?: number;
  error: string;
  /** Of an unreadable row: its text as read. */
  raw?: string;
}

const REJECT_FIELDS: ReadonlySet<string> = new Set([ERROR_FIELD, LINE_FIELD, RAW_FIELD]);

/** A header cell as the field it names (as the csv reader reads it). */
function fieldOf(cell: string): string {
  const name = cell.trim();
  return name.toLowerCase() === 'id' ? 'id' : name;
}

/** A value as the text a cell holds. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : (jsonText(value) ?? String(value));
}

/** Lays rejects out as rows of the input's form (its own reject columns, from a rejects file fed back, written afresh). */
export class SheetRejectRows {
  private readonly keep: number[];
  readonly header: string[];

  constructor(readonly form: SheetForm) {
    this.keep = form.header.map((_, i) => i).filter((i) => !REJECT_FIELDS.has(fieldOf(form.header[i] ?? '')));
    this.header = [...this.keep.map((i) => form.header[i] ?? ''), LINE_FIELD, ERROR_FIELD, RAW_FIELD];
  }

  /** The cells of one reject, in the header's order. */
  cells(reject: SheetReject): string[] {
    const record = typeof reject.value === 'object' && reject.value !== null ? (reject.value as Record<string, unknown>) : undefined;
    const data = this.keep.map((i) => {
      if (reject.raw !== undefined) return '';
      if (reject.row) return reject.row[i] ?? '';
      const field = fieldOf(this.form.header[i] ?? '');
      return cellText(record && Object.hasOwn(record, field) ? record[field] : field === 'id' ? reject.value : undefined);
    });
    // pla's own text is guarded as in its csv output (a row's text as read may start with `=`); the input's cells are its own.
    const own = (text: string) => (this.form.format === 'csv' ? guardFormula(text) : text);
    return [...data, reject.line === undefined ? '' : String(reject.line), own(reject.error), own(reject.raw ?? '')];
  }
}
