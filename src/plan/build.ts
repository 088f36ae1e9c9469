/**
 * Building a plan's entries from what a command would send and the records'
 * current state: the same rules the service applies, so the plan's counts are the
 * counts the real run would give.
 */
import { isDecommissioned, removeKeeps } from '../contract/decommission.js';
import { type RecordId, toRecordId } from '../contract/ids.js';
import type { BadRow, RepeatedRow } from '../io/input/types.js';
import { type FieldTypes, typeSheetRow } from './field-types.js';
import type { NaturalKeyIndex } from './match.js';
import { changedFields } from './record-diff.js';
import { followStoredTypes } from './stored-types.js';
import type { PlanEntry, StoredRecordLike } from './types.js';

/** Record verbs a plan covers. */
export type RecordVerb = 'create' | 'update' | 'upsert';
/** Id verbs a plan covers. */
export type IdVerb = 'delete' | 'remove' | 'decommission' | 'cancel';

/** Task statuses from which a task can no longer be cancelled. */
const FINISHED_TASK = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

export interface RecordInputItem {
  value: StoredRecordLike;
  line: number;
  /** Of a sheet row: cells as written, typed here as the service declares their fields (field-types.ts). */
  cells?: Record<string, string>;
  /** Of a sheet row: every cell's text as read (its reject holds it). */
  row?: string[];
}

/**
 * How sheet rows are read for a plan: the field types the service declares, and
 * with `--match` the index of existing records by the natural key; what the rows'
 * typing guessed or left out is gathered here for the plan to say.
 */
export class SheetReading {
  readonly guessed = new Set<string>();
  readonly dropped = new Set<string>();

  constructor(
    readonly types: FieldTypes,
    readonly match?: NaturalKeyIndex,
  ) {}
}

const recordId = (record: StoredRecordLike): RecordId | undefined => toRecordId(record.id);

/** The ids of records that name one: the records whose current state a plan reads. */
export function idsOfRecords(items: readonly RecordInputItem[]): RecordId[] {
  const ids: RecordId[] = [];
  for (const item of items) {
    const id = recordId(item.value);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/** The record a row names by its natural key (`--match`): its id and record, or why the row is refused. */
function matched(item: RecordInputItem, record: StoredRecordLike, index: NaturalKeyIndex): { id?: RecordId; before?: StoredRecordLike } | { refusal: string } {
  const found = index.match(record, item.cells);
  const key = `${index.field} ${JSON.stringify(item.cells?.[index.field] ?? record[index.field])}`;
  switch (found.kind) {
    case 'no key':
      return { refusal: `no ${index.field} to match by (--match ${index.field})` };
    case 'several':
      return { refusal: `${key} matches ${found.ids.length} records (ids ${found.ids.join(', ')}): ambiguous, not sent` };
    case 'none':
      // A create: the service assigns the id (a sheet's id from another system is not one of its own).
      delete record.id;
      return {};
    case 'one':
      record.id = found.id;
      return { id: found.id, before: found.record };
  }
}

/** The entry of one record sent by `verb`, given the stored record it names (if any); sheet rows typed by `sheet`. */
function recordEntry(verb: RecordVerb, item: RecordInputItem, current: ReadonlyMap<RecordId, StoredRecordLike>, sheet?: SheetReading): PlanEntry {
  const record = { ...item.value };
  const row = item.row ? { row: item.row } : {};
  let id = recordId(record);
  let before = id === undefined ? undefined : current.get(id);
  if (sheet?.match) {
    const found = matched(item, record, sheet.match);
    if ('refusal' in found) return { action: 'refused', line: item.line, record, reason: found.refusal, ...row };
    ({ id, before } = found);
  }
  let warnings: string[] = [];
  if (item.cells && sheet) {
    const typing = typeSheetRow(record, item.cells, sheet.types, before);
    for (const field of typing.guessed) sheet.guessed.add(field);
    for (const field of typing.dropped) sheet.dropped.add(field);
    if (typing.refusal) return { action: 'refused', ...(id !== undefined ? { id } : {}), line: item.line, record: item.value, reason: typing.refusal, ...row };
  } else if (before) warnings = followStoredTypes(record, item.cells, before);
  if (verb === 'create' || id === undefined) {
    if (verb === 'update') return { action: 'refused', line: item.line, record, reason: 'no id: an update needs the record\'s "id"', ...row };
    return { action: 'create', line: item.line, record, ...row };
  }
  if (!before) {
    if (verb === 'update') return { action: 'refused', id, line: item.line, record, reason: `unknown id ${id}`, ...row };
    return { action: 'create', id, line: item.line, record, reason: `id ${id} names no record: the service creates a new one (with its own id)`, ...row };
  }
  const changes = changedFields(before, record);
  if (changes.length === 0) return { action: 'unchanged', id, line: item.line };
  return { action: 'update', id, line: item.line, record, before, changes, ...(warnings.length > 0 ? { warnings } : {}), ...row };
}

/** The entry of an input row not sent: unreadable, or refused before sending (its record kept, to fix and feed back). */
export function problemEntry(row: BadRow): PlanEntry {
  return row.record
    ? { action: 'refused', line: row.line, record: row.record, reason: row.message, ...(row.row ? { row: row.row } : {}) }
    : { action: 'unreadable', line: row.line, raw: row.raw.replace(/(?:\r\n|\r|\n)$/, ''), reason: row.message };
}

/** Entries for records sent by create, update or upsert, for the input rows not sent (`problems`) and for exact repeats, in input order. */
export function planRecords(
  verb: RecordVerb,
  items: readonly RecordInputItem[],
  current: ReadonlyMap<RecordId, StoredRecordLike>,
  problems: readonly BadRow[] = [],
  repeats: readonly RepeatedRow[] = [],
  sheet?: SheetReading,
): PlanEntry[] {
  const repeated = repeats.map((row): PlanEntry => ({
    action: 'repeat',
    line: row.line,
    reason: `repeats line ${row.of} (id ${row.id}, the same values): sent once`,
  }));
  const entries = [...items.map((item) => recordEntry(verb, item, current, sheet)), ...problems.map(problemEntry), ...repeated];
  return entries.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

function status(record: StoredRecordLike): string {
  return typeof record.status === 'string' ? record.status.toUpperCase() : '';
}

/**
 * The entry of one id acted on by `verb`, refusing what the service would refuse.
 * A record already as the verb leaves it (decommissioned, cancelled) is unchanged,
 * not refused: the real run counts it done ("already decommissioned"), so a plan
 * made for a rerun converges (src/confirm/already-done.ts).
 */
function idEntry(verb: IdVerb, id: RecordId, line: number, before: StoredRecordLike | undefined, goneIsDone: boolean): PlanEntry {
  // A delete or remove told `--ignore-not-found` counts an id not found as done, as the run does.
  if (!before && goneIsDone && (verb === 'delete' || verb === 'remove')) return { action: 'unchanged', id, line, reason: 'already gone' };
  if (!before) return { action: 'refused', id, line, reason: `unknown id ${id}` };
  switch (verb) {
    case 'decommission':
      if (isDecommissioned(before)) return { action: 'unchanged', id, line, before, reason: 'already decommissioned' };
      return { action: 'decommission', id, line, before };
    case 'cancel':
      if (status(before) === 'CANCELLED') return { action: 'unchanged', id, line, before, reason: 'already cancelled' };
      if (FINISHED_TASK.has(status(before))) return { action: 'refused', id, line, before, reason: `task already finished (${status(before)})` };
      return { action: 'cancel', id, line, before };
    case 'remove':
      if (!removeKeeps(before)) return { action: 'remove', id, line, before, reason: 'not in use: deletes it' };
      // In use, it is decommissioned instead: already so, it is unchanged as a decommission would be.
      if (isDecommissioned(before)) return { action: 'unchanged', id, line, before, reason: 'in use and already decommissioned' };
      return { action: 'remove', id, line, before, reason: 'in use: decommissions it (kept, not deleted)' };
    case 'delete':
      return { action: 'delete', id, line, before };
  }
}

/** An id to act on, with the line it was read from. */
export interface IdInputItem {
  value: RecordId;
  line: number;
}

/**
 * Entries for ids acted on by delete, remove, decommission or cancel, and for the
 * rows of the ids file that name no id (`problems`: refused, not sent), in line
 * order; an id named twice counts once. `goneIsDone` (`--ignore-not-found`): a
 * delete's or remove's id not found is unchanged, "already gone", not refused.
 */
export function planIds(
  verb: IdVerb,
  items: readonly IdInputItem[],
  current: ReadonlyMap<RecordId, StoredRecordLike>,
  problems: readonly BadRow[] = [],
  goneIsDone = false,
): PlanEntry[] {
  const seen = new Set<RecordId>();
  const entries: PlanEntry[] = [];
  for (const { value: id, line } of items) {
    if (seen.has(id)) continue;
    seen.add(id);
    entries.push(idEntry(verb, id, line, current.get(id), goneIsDone));
  }
  if (problems.length === 0) return entries;
  return [...entries, ...problems.map(problemEntry)].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
