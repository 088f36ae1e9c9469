/** Csv cells typed as the stored record has each field (issue 17 item 3). */
import { describe, expect, it } from 'vitest';
import { followStoredTypes } from '../../src/plan/stored-types.js';

describe('followStoredTypes', () => {
  it('keeps a stored string a string and a stored number a number, from the cell as written', () => {
    const record: Record<string, unknown> = { id: 1, companyCode: 1000, qty: '007', flag: 'TRUE', name: 'x' };
    const warnings = followStoredTypes(
      record,
      { companyCode: '1000', qty: '007', flag: 'TRUE' },
      { id: 1, companyCode: '1000', qty: 5, flag: false, name: 'y' },
    );
    expect(record).toEqual({ id: 1, companyCode: '1000', qty: 7, flag: true, name: 'x' });
    expect(warnings).toEqual([]);
  });

  it('warns of every type that still changes, and leaves fields the record does not store alone', () => {
    const record: Record<string, unknown> = { qty: 'n/a', extra: 5, code: 12 };
    expect(followStoredTypes(record, undefined, { qty: 2, code: '12' })).toEqual([
      'qty: stored as number 2, sent as string "n/a"',
      'code: stored as string "12", sent as number 12',
    ]);
    expect(record).toEqual({ qty: 'n/a', extra: 5, code: 12 });
  });
});
