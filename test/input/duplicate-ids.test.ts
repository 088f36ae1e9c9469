/** Records naming one id twice are decided before any is sent (issue 17 item 4). */
import { describe, expect, it } from 'vitest';
import { DuplicateIds } from '../../src/io/input/duplicate-ids.js';

describe('DuplicateIds', () => {
  async function* items(rows: Array<Record<string, unknown>>) {
    for (const [i, value] of rows.entries()) yield { value, line: i + 2 };
  }

  it('sends identical repeats once and refuses every row of an id named with other values', async () => {
    const rows = [{ id: 1, a: 1 }, { id: 2, a: 1 }, { id: 1, a: 1 }, { id: 2, a: 2 }, { a: 3 }, { id: '3' }];
    const duplicates = await DuplicateIds.scan(() => items(rows));
    expect(rows.map((row, i) => duplicates.verdict(row, i + 2))).toEqual([
      { kind: 'first' },
      { kind: 'ambiguous', lines: [3, 5] },
      { kind: 'repeat', of: 2 },
      { kind: 'ambiguous', lines: [3, 5] },
      { kind: 'only' },
      { kind: 'only' },
    ]);
  });
});
