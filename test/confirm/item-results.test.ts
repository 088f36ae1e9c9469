/**
 * How a bulk answer is read item by item (src/confirm/item-results.ts): matched by
 * id or by position, each element judged by its own words, the items it does not
 * account for left to be read back.
 */
import { describe, expect, it } from 'vitest';
import type { CallResult } from '../../src/client/types.js';
import { operation, type OperationId } from '../../src/contract/operations.js';
import { itemResults } from '../../src/confirm/item-results.js';

const answer = (data: unknown, success?: true, extra: Partial<CallResult> = {}): CallResult => ({
  status: 200,
  data,
  headers: {},
  ...(success ? { success } : {}),
  ...extra,
});
const results = (id: OperationId, sent: unknown[], data: unknown, success?: true, extra: Partial<CallResult> = {}) =>
  itemResults(operation(id), sent, answer(data, success, extra)).map((r) => (r.kind === 'failed' ? `failed: ${r.reason}` : r.kind));

describe('item results', () => {
  it('matches by id in any order, and leaves out what the answer does not name', () => {
    expect(
      results(
        'tasks.cancelBulk',
        [10, 11, 12],
        [
          { id: 12, cancelled: false, reason: 'already COMPLETED' },
          { id: 10, cancelled: true },
        ],
      ),
    ).toEqual(['confirmed', 'missing', 'failed: already COMPLETED']);
  });

  it('reads the per-item words: success flags, failed, errors, a per-item status, a task left in another state', () => {
    expect(
      results(
        'determinations.deleteBulk',
        [1, 2, 3, 4, 5],
        [
          { id: 1, success: 'false', message: 'in use' },
          { id: 2, failed: true, error: 'locked' },
          { id: 3, errors: [{ message: 'referenced' }] },
          { id: 4, status: 'ERROR', message: 'no' },
          { id: 5, deleted: true },
        ],
      ),
    ).toEqual(['failed: in use', 'failed: locked', 'failed: referenced', 'failed: no', 'confirmed']);
    expect(results('tasks.cancelBulk', [10], [{ id: 10, status: 'RUNNING' }])).toEqual(['failed: the task is RUNNING']);
  });

  it("never reads a record's own code or status as a verdict", () => {
    const sent = [{ id: 5, note: 'x' }];
    expect(results('tasks.updateBulk', sent, [{ id: 5, note: 'x', status: 'FAILED', code: 'T-5' }])).toEqual(['confirmed']);
    expect(results('determinations.decommissionBulk', [1], [{ id: 1, code: 'ATD-ACQ', status: 'DECOMMISSIONED' }])).toEqual(['confirmed']);
  });

  it('creates go by the fields sent, never by position; an id answered twice, or fields not as sent, confirm nothing', () => {
    const sent = [{ code: 'A' }, { code: 'B' }];
    expect(
      results('determinations.createBulk', sent, [
        { id: 71, code: 'B' },
        { id: 70, code: 'A' },
      ]),
    ).toEqual(['confirmed', 'confirmed']);
    expect(results('determinations.createBulk', sent, [{ id: 70, code: 'A' }])).toEqual(['confirmed', 'missing']);
    expect(
      results('determinations.createBulk', sent, [
        { id: 70, code: 'A' },
        { id: 70, code: 'B' },
      ]),
    ).toEqual(['missing', 'missing']);
    expect(results('determinations.createBulk', [{ code: 'A' }], [{ id: 70, code: 'Z' }])).toEqual(['missing']);
    // An upsert: the record naming an id takes the element of that id wherever it is; the new one takes the other.
    expect(
      results(
        'determinations.upsertBulk',
        [{ id: 2, code: 'U' }, { code: 'N' }],
        [
          { id: 100, code: 'N' },
          { id: 2, code: 'U' },
        ],
      ),
    ).toEqual(['confirmed', 'confirmed']);
  });

  it('the item of an update is matched by its id alone, and confirmed only with every field sent as sent; that of an upsert may be created anew', () => {
    const sent = [{ id: 1, description: 'a' }, { id: 2, description: 'b' }, { id: 3, description: 'c' }, { description: 'd' }];
    expect(
      results('determinations.updateBulk', sent.slice(0, 3), [
        { id: 11, description: 'a' },
        { id: 2, description: 'old', updatedAt: 'now' },
        { id: 3, code: 'X', description: 'c', updatedAt: 'now' },
      ]),
    ).toEqual(['missing', 'missing', 'confirmed']);
    expect(
      results('determinations.upsertBulk', sent, [
        { id: 11, description: 'a' },
        { id: 12, description: 'd' },
      ]),
    ).toEqual(['confirmed', 'missing', 'missing', 'confirmed']);
    // An upsert of an id the service did not answer may have created the record under a new id (issue 17): 11 is that create.
  });

  it('an answer that confirms nothing: a summary, another count, a bare number, a 202, an envelope saying nothing', () => {
    expect(results('determinations.deleteBulk', [1, 2], { processed: 2 })).toEqual(['missing', 'missing']);
    expect(results('determinations.deleteBulk', [1, 2], { deleted: 1 })).toEqual(['missing', 'missing']);
    // The count sent names no item: each is read back.
    expect(results('determinations.deleteBulk', [1, 2], { deleted: 2 })).toEqual(['missing', 'missing']);
    expect(results('determinations.deleteBulk', [1, 2], 2)).toEqual(['missing', 'missing']);
    expect(results('determinations.deleteBulk', [1, 2], [9])).toEqual(['missing', 'missing']);
    expect(results('determinations.deleteBulk', [1, 2], [2, 1])).toEqual(['confirmed', 'confirmed']);
    expect(results('determinations.deleteBulk', [1, 2], undefined, undefined, { empty: true, status: 202 })).toEqual(['missing', 'missing']);
    expect(results('tasks.cancelBulk', [10], [{ id: 10 }])).toEqual(['missing']);
    expect(results('tasks.cancelBulk', [10], [{ id: 10, status: 'SUCCESS', error: 0 }])).toEqual(['confirmed']);
  });

  it('per-item statuses in the common forms: numbers, HTTP status lines (a 207), words; fields in any case', () => {
    const lines = [
      { id: 10, status: 'HTTP/1.1 200 OK' },
      { id: 11, status: 'HTTP/1.1 423 Locked' },
      { id: 12, status: 204 },
      { id: 13, status: 409, message: 'already COMPLETED' },
      { Id: 14, Status: 'Cancelled' },
      { Id: 15, IsSuccess: false, Errors: ['task 15 is already COMPLETED'] },
    ];
    expect(results('tasks.cancelBulk', [10, 11, 12, 13, 14, 15], lines)).toEqual([
      'confirmed',
      'failed: HTTP/1.1 423 Locked',
      'confirmed',
      'failed: already COMPLETED',
      'confirmed',
      'failed: task 15 is already COMPLETED',
    ]);
  });

  it('a bulk answer naming no items (no body, true, 1, a count, "success") confirms none of them: each is read back', () => {
    expect(results('determinations.deleteBulk', [1, 2], undefined, undefined, { empty: true })).toEqual(['missing', 'missing']);
    expect(results('determinations.deleteBulk', [1, 2], null, true)).toEqual(['missing', 'missing']);
    expect(results('determinations.deleteBulk', [1, 2], null)).toEqual(['missing', 'missing']);
    expect(results('tasks.cancelBulk', [10, 11, 12], true)).toEqual(['missing', 'missing', 'missing']);
    expect(results('tasks.cancelBulk', [10, 11], 1)).toEqual(['missing', 'missing']);
    expect(results('determinations.upsertBulk', [{ id: 1 }], undefined, true)).toEqual(['missing']);
    expect(results('determinations.upsertBulk', [{ id: 1 }], undefined)).toEqual(['missing']);
    expect(results('determinations.deleteBulk', [1, 2], [true, false])).toEqual(['confirmed', 'failed: not deleted (the service answered false)']);
  });
});
