/**
 * The type the service declares for each field, and a sheet's cells read as it.
 * A csv or a workbook says nothing of types: `1000` may be the number or the code
 * "1000", `WAHR` is a German Excel's true. Each cell takes its field's type from,
 * in order: the stored record the row names (its value's type), the resource's
 * schema (the service's `meta` answer when it reads as a JSON Schema, else the
 * types of the existing records of a first page), and only then the type the
 * cell's text suggests, which is then a guess the plan names. A cell that cannot
 * be read as its field's type refuses its row, with the field and why.
 *
 * Fields the service sets itself (its ids, created/updated/decommissioned stamps)
 * are never sent from a sheet: an export edited in Excel and fed back changes
 * only what was edited.
 */
import { INT64_MAX } from '../contract/ids.js';
import { exactNumber, isJsonNumber, unrepresentable } from '../json/exact-number.js';
import { parseJson } from '../json/json-parse.js';
import { asRecord, SERVER_OWNED_FIELDS } from './record-diff.js';
import type { StoredRecordLike } from './types.js';

/** The types a cell is read as (`date-time`: a string holding an ISO 8601 stamp). */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date-time' | 'object' | 'array';

/** Where a resource's field types came from. */
export type TypesSource = 'schema' | 'records' | 'none';

/** A resource's declared field types, and the fields the service sets itself. */
export interface FieldTypes {
  /** By field name (a Map: field names are the user's). */
  declared: ReadonlyMap<string, FieldType>;
  /** Fields never sent from a sheet: the service sets them. */
  managed: ReadonlySet<string>;
  source: TypesSource;
}

/** Stamps a service sets on its own (created, updated, decommissioned, cancelled), beside the owned fields. */
const SERVICE_STAMPS = ['decommissionedAt', 'cancelledAt', 'createdBy', 'lastModifiedBy'];

/** The fields no sheet sends: the service's own (but `id`, the row's key) and its stamps. */
function managedFields(extra: Iterable<string> = []): Set<string> {
  const managed = new Set([...SERVER_OWNED_FIELDS, ...SERVICE_STAMPS, ...extra]);
  managed.delete('id');
  return managed;
}

/** No declared types: every cell is inferred (and named as guessed). */
export const NO_TYPES: FieldTypes = { declared: new Map(), managed: managedFields(), source: 'none' };

/** An ISO 8601 date or date-time as services write them (`2026-11-18`, `2026-11-18T14:54:00Z`). */
const ISO_STAMP = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function isStamp(value: unknown): boolean {
  return typeof value === 'string' && ISO_STAMP.test(value) && !Number.isNaN(Date.parse(value));
}

/** The type a stored value has. */
export function typeOfValue(value: unknown): FieldType | undefined {
  if (value === null || value === undefined) return undefined;
  if (isJsonNumber(value)) return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value)) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return isStamp(value) ? 'date-time' : 'string';
  return Array.isArray(value) ? 'array' : 'object';
}

const SCHEMA_TYPES: ReadonlyMap<string, FieldType> = new Map([
  ['string', 'string'],
  ['integer', 'integer'],
  ['number', 'number'],
  ['boolean', 'boolean'],
  ['object', 'object'],
  ['array', 'array'],
]);

/** One JSON Schema property's type: its one non-null type (a string of format date-time is one). */
function schemaType(property: unknown): FieldType | undefined {
  const schema = asRecord(property);
  if (!schema) return undefined;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== 'null');
  // integer and number together (a field seen both ways) is a number.
  const named = types.length === 2 && types.includes('integer') && types.includes('number') ? ['number'] : types;
  if (named.length !== 1 || typeof named[0] !== 'string') return undefined;
  const type = SCHEMA_TYPES.get(named[0]);
  return type === 'string' && (schema.format === 'date-time' || schema.format === 'date') ? 'date-time' : type;
}

/**
 * The field types a `meta` answer declares, when it reads as a JSON Schema of an
 * object (`properties`); its `x-serverOwned` list and `readOnly` properties are the
 * service's own fields. `undefined` when it is not a schema.
 */
export function typesFromSchema(answer: unknown): FieldTypes | undefined {
  const schema = asRecord(answer);
  const properties = asRecord(schema?.properties);
  if (!schema || !properties) return undefined;
  const declared = new Map<string, FieldType>();
  const readOnly: string[] = [];
  for (const [field, property] of Object.entries(properties)) {
    const type = schemaType(property);
    if (type) declared.set(field, type);
    if (asRecord(property)?.readOnly === true) readOnly.push(field);
  }
  const owned = Array.isArray(schema['x-serverOwned']) ? schema['x-serverOwned'].filter((field): field is string => typeof field === 'string') : [];
  return { declared, managed: managedFields([...owned, ...readOnly]), source: 'schema' };
}

/** The field types existing records show: a field whose non-null values all have one type. */
export function typesFromRecords(records: readonly StoredRecordLike[]): FieldTypes {
  const seen = new Map<string, Set<FieldType>>();
  for (const record of records) {
    for (const [field, value] of Object.entries(record)) {
      const type = typeOfValue(value);
      if (!type) continue;
      const types = seen.get(field) ?? new Set<FieldType>();
      types.add(type === 'integer' ? 'number' : type);
      seen.set(field, types);
    }
  }
  const declared = new Map<string, FieldType>();
  for (const [field, types] of seen) if (types.size === 1) declared.set(field, [...types][0] as FieldType);
  return { declared, managed: managedFields(), source: records.length > 0 ? 'records' : 'none' };
}

/** Excel's spellings of true and false in the common locales (en, de, fr, it, es, pt, nl, sv, da/no), and yes/no, 1/0. */
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ...['true', 'wahr', 'vrai', 'vero', 'verdadero', 'verdadeiro', 'waar', 'sant', 'sand', 'yes', 'ja', 'oui', 'sí', 'si', 'sim', '1'].map(
    (word) => [word, true] as const,
  ),
  ...['false', 'falsch', 'faux', 'falso', 'onwaar', 'falskt', 'falsk', 'no', 'nein', 'non', 'não', 'nao', 'nee', 'nej', '0'].map(
    (word) => [word, false] as const,
  ),
]);

/** A decimal number, leading zeros and a sign allowed (`007`, `+5`), as Excel saves numbers-as-text. */
const DECIMAL = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** A European decimal comma (`12,5`): not three digits after it, which could be a thousands group (`1,000`). */
const DECIMAL_COMMA = /^[+-]?\d+,(?:\d{1,2}|\d{4,})$/;
const EXPONENT = /[eE]/;

/** A cell read as its field's type: the value, or why it cannot be. */
export type TypedCell = { value: unknown } | { error: string };

function quoted(text: string): string {
  return `'${text}'`;
}

function numberCell(text: string, integer: boolean): TypedCell {
  const trimmed = text.trim();
  const decimal = DECIMAL_COMMA.test(trimmed) && !integer ? trimmed.replace(',', '.') : trimmed;
  if (!DECIMAL.test(decimal)) return { error: `${quoted(text)} is not ${integer ? 'an integer' : 'a number'}` };
  if (integer && EXPONENT.test(decimal))
    return { error: `${quoted(text)} is in exponent notation, which loses digits (format the column as a number with no decimals, or as text)` };
  const digits = decimal.replace(/^\+/, '').replace(/^(-?)0+(?=\d)/, '$1');
  const reason = unrepresentable(digits);
  if (reason !== undefined) return { error: `${quoted(text)}: ${reason}` };
  if (integer && /\.\d*[1-9]/.test(digits)) return { error: `${quoted(text)} is not an integer` };
  const value = exactNumber(integer ? digits.replace(/\.0+$/, '') : digits);
  if (integer && typeof value === 'bigint' && value > INT64_MAX) return { error: `${quoted(text)} is past the largest integer (${INT64_MAX})` };
  return { value };
}

/**
 * `text` (a cell as written) read as `type`: numbers-as-text as numbers, Excel's
 * booleans as booleans, a stamp as the ISO 8601 text the service writes (a date a
 * spreadsheet reformatted, `18.11.2026 14:54`, is refused: its zone and order are
 * guesses), JSON for objects and arrays, anything as a string.
 */
export function readCellAs(text: string, type: FieldType): TypedCell {
  switch (type) {
    case 'string':
      return { value: text };
    case 'integer':
    case 'number':
      return numberCell(text, type === 'integer');
    case 'boolean': {
      const value = BOOLEANS.get(text.trim().toLowerCase());
      return value === undefined ? { error: `${quoted(text)} is not a boolean (TRUE or FALSE)` } : { value };
    }
    case 'date-time':
      return isStamp(text.trim())
        ? { value: text.trim() }
        : { error: `${quoted(text)} is not a date-time as the service writes them (2026-11-18T14:54:00Z): a spreadsheet may have reformatted it` };
    case 'object':
    case 'array':
      try {
        const value = parseJson(text, { input: true });
        if (typeOfValue(value) === type) return { value };
      } catch {
        // Said below.
      }
      return { error: `${quoted(text)} is not a JSON ${type}` };
  }
}

/** What typing one sheet row did. */
export interface RowTyping {
  /** Why the row cannot be sent (each field that cannot be read as its type), when it cannot. */
  refusal?: string;
  /** Fields typed by the cell's own text: neither the record nor the schema declares them. */
  guessed: string[];
  /** Fields left out: the service sets them. */
  dropped: string[];
}

/**
 * Types a sheet row's record in place: each field as the stored record has it
 * (when the row names one), else as `types` declares it, else as read (guessed);
 * `cells` holds the text as written of cells read as numbers or booleans (other
 * cells are their text already). Fields the service sets are dropped.
 */
export function typeSheetRow(record: StoredRecordLike, cells: Readonly<Record<string, string>>, types: FieldTypes, stored?: StoredRecordLike): RowTyping {
  const typing: RowTyping = { guessed: [], dropped: [] };
  const problems: string[] = [];
  for (const [field, value] of Object.entries(record)) {
    if (field === 'id') continue;
    if (types.managed.has(field)) {
      delete record[field];
      typing.dropped.push(field);
      continue;
    }
    const type = typeOfValue(stored?.[field]) ?? types.declared.get(field);
    if (!type) {
      typing.guessed.push(field);
      continue;
    }
    const text = Object.hasOwn(cells, field) ? cells[field] : typeof value === 'string' ? value : undefined;
    // A JSON cell (an object, an array) was typed by its JSON already.
    if (text === undefined) continue;
    // A stored integer field takes decimals too (a number column of whole values so far).
    const read = readCellAs(text, type === 'integer' && stored === undefined ? 'integer' : type === 'integer' ? 'number' : type);
    if ('error' in read) problems.push(`${field}: ${read.error}`);
    else record[field] = read.value;
  }
  if (problems.length > 0) typing.refusal = problems.join('; ');
  return typing;
}
