/**
 * The inverse of a run, as a plan: created → delete; updated → the fields back as
 * they were (fields the run added are set to null: the interface cannot remove a
 * field); deleted → created again (with a new id: the service assigns ids). What
 * the interface cannot reverse — a decommission, a cancel, anything whose record
 * before was not recorded — is listed as irreversible, never skipped silently.
 * Records changed by someone else since the run are refused, not overwritten.
 * Records the run found already as asked (`already`: gone under
 * `--ignore-not-found`, a task already cancelled) are unchanged: it did nothing to them.
 */
import { type RecordId, toRecordId } from '../contract/ids.js';
import { bulkOperation } from '../contract/operations.js';
import { clientFields, sameValue, changedFields, unchangedSince, SERVER_OWNED_FIELDS } from '../plan/record-diff.js';
import type { Plan, PlanAction, PlanEntry, StoredRecordLike } from '../plan/types.js';
import type { RecordLine } from './types.js';
import { setField } from '../contract/own-fields.js';

/** One record's part in a run: its state before the first change and after the last. */
interface Touched {
  id?: RecordId;
  actions: string[];
  before?: StoredRecordLike;
  after?: StoredRecordLike;
  /** Every line of it says the run found it already as asked (`already`): the run changed nothing of it. */
  already: boolean;
}

/** The record a receipt line is about: its id (exact past 2^53, or digits from an older receipt), else the id of the record after. */
export function idOfLine(line: RecordLine): RecordId | undefined {
  return line.id === undefined ? toRecordId(line.after?.id) : toRecordId(line.id);
}

/** Folds a run's record lines per record (a record changed twice is undone to its first state). */
export function touchedRecords(lines: readonly RecordLine[]): Touched[] {
  const byId = new Map<RecordId, Touched>();
  const anonymous: Touched[] = [];
  for (const line of lines) {
    const id = idOfLine(line);
    if (id === undefined) {
      anonymous.push({
        actions: [line.action],
        ...(line.before ? { before: line.before } : {}),
        ...(line.after ? { after: line.after } : {}),
        already: line.already === true,
      });
      continue;
    }
    const touched = byId.get(id) ?? { id, actions: [], already: true };
    touched.actions.push(line.action);
    touched.already &&= line.already === true;
    touched.before ??= line.before;
    if (line.after) touched.after = line.after;
    byId.set(id, touched);
  }
  return [...byId.values(), ...anonymous];
}

const IRREVERSIBLE: Record<string, string> = {
  decommission: 'a decommission cannot be undone: the interface has no reverse operation',
  cancel: 'a cancelled task cannot be resumed: the interface has no reverse operation',
};

/** Whether the record now is the one the run left (same stamp, or the same whole record). */
function asRunLeftIt(touched: Touched, current: StoredRecordLike): boolean {
  return touched.after ? unchangedSince(touched.after, current) : true;
}

/** The inverse entry of one touched record, given its current state. */
function inverse(touched: Touched, current: StoredRecordLike | undefined): PlanEntry {
  const id = touched.id;
  const first = touched.actions[0] ?? '';
  const last = touched.actions[touched.actions.length - 1] ?? '';
  const where = id === undefined ? {} : { id };
  // Gone, cancelled or decommissioned before the run (a rerun, --ignore-not-found): there is nothing of the run's to undo.
  if (touched.already) return { action: 'unchanged', ...where, reason: 'the run found it already as asked and changed nothing of it' };
  const irreversible = touched.actions.find((action) => IRREVERSIBLE[action]);
  if (irreversible) return { action: 'irreversible', ...where, reason: IRREVERSIBLE[irreversible] as string };
  const removedInUse = touched.actions.includes('remove') && touched.before?.inUse === true;
  if (removedInUse) return { action: 'irreversible', ...where, reason: 'removed while in use, so decommissioned: a decommission cannot be undone' };

  const gone = last === 'delete' || last === 'remove';
  if (gone) {
    if (!touched.before)
      return { action: 'irreversible', ...where, reason: 'the record before was not recorded (runs on protected environments always record it)' };
    if (current) return { action: 'refused', ...where, reason: `a record with id ${String(id)} exists again` };
    if (first === 'create' && !touched.before) return { action: 'unchanged', ...where };
    return { action: 'create', record: clientFields(touched.before), reason: `re-creates ${String(id)} with a new id (the service assigns ids)` };
  }
  if (!current) return { action: 'refused', ...where, reason: 'deleted since the run' };
  if (!asRunLeftIt(touched, current)) return { action: 'refused', ...where, before: current, reason: 'changed since the run: not overwritten' };
  // A record the receipt holds a `before` of existed before the run (whatever an answer called the change): it is restored, never deleted.
  if (first === 'create' && !touched.before) return { action: 'delete', ...where, before: current };
  if (!touched.before)
    return { action: 'irreversible', ...where, reason: 'the record before was not recorded (runs on protected environments always record it)' };

  const before = touched.before;
  const record: StoredRecordLike = { id };
  const nulled: string[] = [];
  for (const field of Object.keys(clientFields(current))) {
    if (Object.hasOwn(before, field)) {
      if (!sameValue(before[field], current[field])) setField(record, field, before[field]);
    } else if (current[field] !== null) {
      setField(record, field, null);
      nulled.push(field);
    }
  }
  for (const field of Object.keys(before)) if (!SERVER_OWNED_FIELDS.has(field) && !Object.hasOwn(current, field)) setField(record, field, before[field]);
  const changes = changedFields(current, record);
  if (changes.length === 0) return { action: 'unchanged', ...where };
  const reason = nulled.length > 0 ? `fields the run added are set to null (the interface cannot remove a field): ${nulled.join(', ')}` : undefined;
  return { action: 'update', ...where, record, before: current, changes, ...(reason ? { reason } : {}) };
}

const ORDER: PlanAction[] = ['delete', 'update', 'create', 'unchanged', 'refused', 'irreversible'];

/** The undo's entries, deletes first, then updates, then re-creates, then what is not sent. */
export function inverseEntries(lines: readonly RecordLine[], current: ReadonlyMap<RecordId, StoredRecordLike>): PlanEntry[] {
  const entries = touchedRecords(lines).map((touched) => inverse(touched, touched.id === undefined ? undefined : current.get(touched.id)));
  return entries.sort((a, b) => ORDER.indexOf(a.action) - ORDER.indexOf(b.action));
}

/** The operations an undo of `resource` sends through; an action without one makes its entries irreversible. */
export function undoOperations(resource: string): Plan['operations'] {
  const operations: Plan['operations'] = {};
  for (const action of ['delete', 'update', 'create'] as const) {
    const bulk = bulkOperation(resource, action);
    if (bulk) operations[action] = bulk;
  }
  return operations;
}

/** Entries whose action the resource has no operation for become irreversible (tasks cannot be deleted). */
export function withinReach(entries: PlanEntry[], operations: Plan['operations']): PlanEntry[] {
  return entries.map((entry) =>
    (entry.action === 'delete' || entry.action === 'update' || entry.action === 'create') && !operations[entry.action]
      ? { action: 'irreversible', ...(entry.id !== undefined ? { id: entry.id } : {}), reason: `the interface has no ${entry.action} for this resource` }
      : entry,
  );
}
