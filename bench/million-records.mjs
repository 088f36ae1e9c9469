// The records of bench/million.mjs: a determination of 7 short fields besides its id.

const KINDS = ['LEASE', 'SALE', 'TRANSFER', 'IMPAIRMENT'];
const UPDATED_MS = Date.parse('2026-01-01T00:00:00.000Z');

/** Determination number `i` (1-based), about 170 bytes of JSON. */
export function shortDetermination(i) {
  return {
    id: i,
    name: `Determination ${i}`,
    transactionType: KINDS[i % KINDS.length],
    companyCode: `C${String(i % 97).padStart(3, '0')}`,
    debitAccount: `4${String(i % 10_000).padStart(5, '0')}`,
    creditAccount: `2${String((i * 7) % 10_000).padStart(5, '0')}`,
    amount: Math.round(i * 1.37 * 100) / 100,
    updatedAt: new Date(UPDATED_MS + (i % 86_400) * 1000).toISOString(),
  };
}
