/**
 * Declarative queries as SQL over a collection's `record jsonb`, following the
 * rules documented on `Condition` and `SortKey` (the file store's `query.ts` and
 * `record-order.ts` follow the same ones in JavaScript). Values always travel as
 * parameters; field names become quoted JSON paths, never SQL text.
 */
import type { Condition, Query, SortKey } from '../types.js';

/** Parameters of one statement, numbered as they are added. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  json(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::jsonb`;
  }
}

/** A SQL string literal (for field names in JSON paths: fixed per query shape, so plans are reused). */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The jsonb value of a field. A dotted name reads the nested field unless the record
 * has that very name as its own key (as `fieldValue` does). The plain form is the
 * expression the indexes are built on, so the planner can use them.
 */
export function fieldSql(field: string): string {
  const own = `(record->${literal(field)})`;
  if (!field.includes('.')) return own;
  const path = `{${field.split('.').map((part) => `"${part.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  return `COALESCE(${own}, record#>${literal(path)})`;
}

/** One range bound: only values of the bound's own kind (number or string) compare. */
function boundSql(value: string, bound: unknown, operator: string, params: Params): string {
  if (typeof bound !== 'number' && typeof bound !== 'string') return 'false';
  return `(jsonb_typeof(${value}) = '${typeof bound}' AND ${value} ${operator} ${params.json(bound)})`;
}

function conditionSql(condition: Condition, params: Params): string {
  const value = fieldSql(condition.field);
  if ('equals' in condition) return `${value} = ${params.json(condition.equals)}`;
  if ('notEquals' in condition) return `(${value} IS NULL OR ${value} <> ${params.json(condition.notEquals)})`;
  if ('anyOf' in condition) return `${value} = ANY(${params.add(condition.anyOf.map((one) => JSON.stringify(one)))}::jsonb[])`;
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
export function whereSql(where: readonly Condition[] | undefined, params: Params): string {
  if (!where?.length) return '';
  return `WHERE ${where.map((condition) => conditionSql(condition, params)).join(' AND ')}`;
}

/**
 * `ORDER BY …`: each key by its kind first (booleans, numbers, strings, objects,
 * then null and missing), then its value; ties broken by id in the first key's
 * direction. Keys after an `id` key can decide nothing and are dropped.
 */
export function orderSql(sort: readonly SortKey[] | undefined): string {
  const keys = sort ?? [];
  const idAt = keys.findIndex((key) => key.field === 'id');
  const used = idAt === -1 ? keys : keys.slice(0, idAt + 1);
  const terms: string[] = [];
  for (const key of used) {
    const direction = key.direction === 'desc' ? 'DESC' : 'ASC';
    if (key.field === 'id') {
      terms.push(`id ${direction}`);
    } else {
      const value = fieldSql(key.field);
      terms.push(`pla_kind(${value}) ${direction}`, `${value} ${direction}`);
    }
  }
  if (idAt === -1) terms.push(`id ${keys[0]?.direction === 'desc' ? 'DESC' : 'ASC'}`);
  return `ORDER BY ${terms.join(', ')}`;
}

/** `SELECT doc … WHERE … ORDER BY …` (without paging) of a query on a table. */
export function selectSql(table: string, query: Query, params: Params, lock: boolean): string {
  return `SELECT doc FROM ${table} ${whereSql(query.where, params)} ${orderSql(query.sort)}${lock ? ' FOR UPDATE' : ''}`;
}
