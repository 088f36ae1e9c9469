/**
 * Declarative queries as SQL over a collection's `record jsonb`, following the
 * rules documented on `Condition` and `SortKey` (the file store's `query.ts` and
 * `record-order.ts` follow the same ones in JavaScript). Values always travel as
 * parameters; field names become quoted JSON paths, never SQL text.
 */
import { isJsonNumber } from '../../json/exact-number.js';
import { jsonText } from '../../json/json-text.js';
import type { CollectionName, Condition, PageQuery, Query, SortKey } from '../types.js';
import { SORT_COLUMNS, codeOrderText, tableOf } from './schema.js';

/** A collection's sort columns (field → column), which stand for `record->'field'` wherever it appears. */
type Columns = Readonly<Record<string, string>>;

/** Parameters of one statement, numbered as they are added. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  json(value: unknown): string {
    return `${this.add(jsonText(value))}::jsonb`;
  }
}

/** A SQL string literal (for field names in JSON paths: fixed per query shape, so plans are reused). */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The jsonb value of a field. A dotted name reads the nested field unless the record
 * has that very name as its own key (as `fieldValue` does). The plain form is the
 * expression the indexes are built on, so the planner can use them; a field kept in
 * a sort column is that column (the same value).
 */
export function fieldSql(field: string, columns: Columns = {}): string {
  const column = Object.hasOwn(columns, field) ? columns[field] : undefined;
  if (column !== undefined) return column;
  const own = `(record->${literal(field)})`;
  if (!field.includes('.')) return own;
  const path = `{${field
    .split('.')
    .map((part) => `"${part.replace(/["\\]/g, (c) => `\\${c}`)}"`)
    .join(',')}}`;
  return `COALESCE(${own}, record#>${literal(path)})`;
}

/** One range bound: only values of the bound's own kind (number or string) compare; strings by code point, as sorts do. */
function boundSql(value: string, bound: unknown, operator: string, params: Params): string {
  if (typeof bound === 'string') return `(jsonb_typeof(${value}) = 'string' AND ${codeOrderText(value)} ${operator} ${params.add(bound)})`;
  if (!isJsonNumber(bound)) return 'false';
  return `(jsonb_typeof(${value}) = 'number' AND ${value} ${operator} ${params.json(bound)})`;
}

function conditionSql(condition: Condition, params: Params, columns: Columns): string {
  const value = fieldSql(condition.field, columns);
  if ('equals' in condition) return `${value} = ${params.json(condition.equals)}`;
  if ('notEquals' in condition) return `(${value} IS NULL OR ${value} <> ${params.json(condition.notEquals)})`;
  if ('anyOf' in condition) return `${value} = ANY(${params.add(condition.anyOf.map((one) => jsonText(one)))}::jsonb[])`;
  if ('equalsIgnoreCase' in condition) {
    return `(jsonb_typeof(${value}) = 'string' AND lower(${value}#>>'{}') = lower(${params.add(condition.equalsIgnoreCase)}))`;
  }
  const { from, to, before } = condition.range;
  const bounds = [`jsonb_typeof(${value}) IN ('number', 'string')`];
  if (from !== undefined) bounds.push(boundSql(value, from, '>=', params));
  if (to !== undefined) bounds.push(boundSql(value, to, '<=', params));
  if (before !== undefined) bounds.push(boundSql(value, before, '<', params));
  return `(${bounds.join(' AND ')})`;
}

/** `WHERE …` of the conditions ('' when none). */
export function whereSql(collection: CollectionName, where: readonly Condition[] | undefined, params: Params): string {
  if (!where?.length) return '';
  const columns = SORT_COLUMNS[collection] ?? {};
  return `WHERE ${where.map((condition) => conditionSql(condition, params, columns)).join(' AND ')}`;
}

/**
 * `ORDER BY …`: each key by its kind first (booleans, numbers, strings, objects,
 * then null and missing), then a string's text by code point (`codeOrderText`), then
 * its value: JSON `null` comes before SQL NULL (the
 * missing value) ascending, by ORDER BY's default NULLS LAST, and after it
 * descending (NULLS FIRST); the file store orders them the same. Ties broken by id
 * in the first key's direction. Keys after an `id` key can decide nothing and are dropped.
 */
export function orderSql(collection: CollectionName, sort: readonly SortKey[] | undefined): string {
  const columns = SORT_COLUMNS[collection] ?? {};
  const keys = sort ?? [];
  const idAt = keys.findIndex((key) => key.field === 'id');
  const used = idAt === -1 ? keys : keys.slice(0, idAt + 1);
  const terms: string[] = [];
  for (const key of used) {
    const direction = key.direction === 'desc' ? 'DESC' : 'ASC';
    if (key.field === 'id') {
      terms.push(`id ${direction}`);
    } else if (Object.hasOwn(columns, key.field)) {
      const column = columns[key.field];
      terms.push(`${column}_kind ${direction}`, `${column}_text ${direction}`, `${column} ${direction}`);
    } else {
      const value = fieldSql(key.field);
      terms.push(`pla_kind(${value}) ${direction}`, `${codeOrderText(value)} ${direction}`, `${value} ${direction}`);
    }
  }
  if (idAt === -1) terms.push(`id ${keys[0]?.direction === 'desc' ? 'DESC' : 'ASC'}`);
  return `ORDER BY ${terms.join(', ')}`;
}

/** `SELECT doc … WHERE … ORDER BY …` (without paging) of a query on a collection. */
export function selectSql(collection: CollectionName, query: Query, params: Params, lock: boolean): string {
  return `SELECT doc FROM ${tableOf(collection)} ${whereSql(collection, query.where, params)} ${orderSql(collection, query.sort)}${lock ? ' FOR UPDATE' : ''}`;
}

/**
 * One page, as a "deferred join": the page's ids first, by a query that reads only
 * the sort columns and ids (an index-only scan when the sort has its columns and the
 * index, however deep the offset), then the records of those ids alone, in that
 * order. Reading `doc` for every skipped record is what made deep pages slow.
 * Without locks; a transaction's locking page is `selectSql … LIMIT … OFFSET … FOR UPDATE`.
 */
export function pageSql(collection: CollectionName, query: PageQuery, params: Params): string {
  const table = tableOf(collection);
  const ids = `SELECT id FROM ${table} ${whereSql(collection, query.where, params)} ${orderSql(collection, query.sort)} LIMIT ${params.add(query.limit)} OFFSET ${params.add(query.offset)}`;
  return `SELECT t.doc FROM unnest(ARRAY(${ids})) WITH ORDINALITY AS page(id, n) JOIN ${table} t ON t.id = page.id ORDER BY page.n`;
}
