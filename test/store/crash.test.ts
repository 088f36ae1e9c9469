import { describe, expect, it } from 'vitest';
import type { FileTables as Store } from '../../src/store/index.js';
import { startWriter } from './child-store.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

/**
 * Checks a store recovered after the commit-writer was killed: commits are applied in
 * order and each whole, so the store must hold exactly groups 1..K (both parts of each)
 * for some K no smaller than the last acknowledged group, with settings 1 saying K.
 */
function expectWholePrefix(store: Store, acked: readonly number[]): number {
  const parts = new Map<number, string[]>();
  for (const record of store.all('determinations')) {
    const group = record.group as number;
    parts.set(group, [...(parts.get(group) ?? []), record.part as string]);
  }
  const last = store.get('settings', 1)?.last as number;
  const highestAcked = Math.max(...acked);
  expect(last).toBeGreaterThanOrEqual(highestAcked);
  expect(parts.size).toBe(last);
  for (let group = 1; group <= last; group++) expect(parts.get(group)?.sort()).toEqual(['a', 'b']);
  return last;
}

const scenarios = [
  { name: 'during appends', compactAfterEntries: 1_000_000, killAfter: [300, 1500] },
  { name: 'during compactions', compactAfterEntries: 40, killAfter: [100, 600, 1500] },
];

describe('kill -9 under concurrent commits', () => {
  for (const scenario of scenarios) {
    for (const killAfter of scenario.killAfter) {
      it(`loses no acknowledged commit and half-applies none: ${scenario.name}, killed after ${killAfter} acks`, async () => {
        const dir = await tempDir();
        const writer = await startWriter(dir, scenario.compactAfterEntries);
        await writer.acks(killAfter);
        await writer.kill();
        expect(writer.acked.length).toBeGreaterThanOrEqual(killAfter);

        const store = await openTestStore(dir);
        const last = expectWholePrefix(store, writer.acked);
        // Ids carry on past everything recovered (each group used two).
        expect(store.allocateId('determinations')).toBe(2 * last + 1);
        await closeTestStore(store);
        // After a clean close (a compaction), the same holds from the snapshot alone.
        const reopened = await openTestStore(dir);
        expect(expectWholePrefix(reopened, writer.acked)).toBe(last);
      });
    }
  }

  it("keeps one whole history across several crashes in a row, recovering from each crash's leftovers", async () => {
    const dir = await tempDir();
    const acked: number[] = [];
    for (const killAfter of [150, 150, 150]) {
      // Each run recovers what the previous one left (torn tail, temp files, stale lock) and goes on.
      const writer = await startWriter(dir, 30);
      await writer.acks(killAfter);
      await writer.kill();
      acked.push(...writer.acked);
    }
    const store = await openTestStore(dir);
    expect(expectWholePrefix(store, acked)).toBeGreaterThanOrEqual(450);
  });
});
