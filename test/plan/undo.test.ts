/** The inverse plan of a run, from its receipt lines and the records' current state. */
import { describe, expect, it } from 'vitest';
import { inverseEntries, undoOperations, withinReach } from '../../src/runs/undo.js';
import type { RecordLine } from '../../src/runs/types.js';

const at = (n: number) => `2026-01-0${n}T00:00:00.000Z`;
const line = (action: string, id: number, before?: Record<string, unknown>, after?: Record<string, unknown>): RecordLine => ({
  type: 'record',
  action,
  id,
  ...(before ? { before } : {}),
  ...(after ? { after } : {}),
});

describe('inverseEntries', () => {
  it('never deletes a record the receipt holds a before of, whatever an answer called the change: it is restored', () => {
    const before = { id: 2, name: 'kept', updatedAt: at(1) };
    const after = { id: 2, name: 'overwritten', updatedAt: at(2) };
    // A create answered with record 2 (an id known before), then an update of 2 that read its before.
    const entries = inverseEntries([line('create', 2, undefined, after), line('update', 2, before, after)], new Map([[2, after]]));
    expect(entries).toEqual([
      { action: 'update', id: 2, record: { id: 2, name: 'kept' }, before: after, changes: [{ field: 'name', old: 'overwritten', new: 'kept' }] },
    ]);
    // Gone since: re-created from its before, not left "unchanged".
    expect(inverseEntries([line('create', 2, undefined, after), line('delete', 2, before)], new Map())).toEqual([
      { action: 'create', record: { name: 'kept' }, reason: 're-creates 2 with a new id (the service assigns ids)' },
    ]);
  });

  it('deletes what the run created and puts updated fields back, setting added fields to null', () => {
    const created = { id: 1, name: 'new', updatedAt: at(2) };
    const before = { id: 2, name: 'old', amount: 1, updatedAt: at(1) };
    const after = { id: 2, name: 'changed', amount: 1, note: 'added', updatedAt: at(2) };
    const entries = inverseEntries(
      [line('create', 1, undefined, created), line('update', 2, before, after)],
      new Map([
        [1, created],
        [2, after],
      ]),
    );
    expect(entries).toEqual([
      { action: 'delete', id: 1, before: created },
      {
        action: 'update',
        id: 2,
        record: { id: 2, name: 'old', note: null },
        before: after,
        changes: [
          { field: 'name', old: 'changed', new: 'old' },
          { field: 'note', old: 'added', new: null },
        ],
        reason: 'fields the run added are set to null (the interface cannot remove a field): note',
      },
    ]);
  });

  it('refuses records changed since the run, and lists what cannot be undone', () => {
    const after = { id: 3, name: 'x', updatedAt: at(2) };
    const entries = inverseEntries(
      [line('update', 3, { id: 3, name: 'w', updatedAt: at(1) }, after), line('decommission', 4, undefined, { id: 4 }), line('delete', 5), line('cancel', 6)],
      new Map([[3, { ...after, name: 'someone else', updatedAt: at(3) }]]),
    );
    expect(entries.map((entry) => [entry.action, entry.id])).toEqual([
      ['refused', 3],
      ['irreversible', 4],
      ['irreversible', 5],
      ['irreversible', 6],
    ]);
    expect(entries[0]?.reason).toBe('changed since the run: not overwritten');
  });

  it('re-creates a deleted record from its record before, without the fields the service owns', () => {
    const before = { id: 7, name: 'gone', createdAt: at(1), updatedAt: at(1) };
    const [entry] = inverseEntries([line('delete', 7, before)], new Map());
    expect(entry).toMatchObject({ action: 'create', record: { name: 'gone' } });
  });

  it('makes an action the resource has no operation for irreversible (tasks cannot be deleted)', () => {
    const operations = undoOperations('tasks');
    expect(operations).toEqual({ update: 'tasks.updateBulk' });
    expect(withinReach([{ action: 'delete', id: 1 }], operations)).toEqual([
      { action: 'irreversible', id: 1, reason: 'the interface has no delete for this resource' },
    ]);
  });
});
