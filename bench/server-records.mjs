// The records every side of bench/server.mjs is loaded with, so all compare like with like.

const KINDS = ['LEASE', 'SALE', 'TRANSFER', 'IMPAIRMENT'];
const createdAt = '2026-01-01T00:00:00.000Z';
const CREATED_MS = Date.parse(createdAt);
/** A prime larger than any count benched: `i * 7919 mod it` scatters update times over the records. */
const SCATTER = 1_000_003;

/**
 * The fields of determination number `i` that every benchmark's records share (the
 * spreadsheet's columns): the server benchmarks' records add the stamps a store holds,
 * bench/million-records.mjs adds what a user sends.
 */
export function determinationFields(i) {
  return {
    name: `Determination ${i}`,
    transactionType: KINDS[i % KINDS.length],
    companyCode: `C${String(i % 97).padStart(3, '0')}`,
    debitAccount: `4${String(i % 10_000).padStart(5, '0')}`,
    creditAccount: `2${String((i * 7) % 10_000).padStart(5, '0')}`,
    amount: Math.round(i * 1.37 * 100) / 100,
  };
}

/** The benchmark's determination number `i` (1-based), about 250 bytes of JSON. */
export function determination(i) {
  return {
    id: i,
    ...determinationFields(i),
    status: 'ACTIVE',
    createdAt,
    // Scattered, so that a page sorted by updatedAt is not the id order.
    updatedAt: new Date(CREATED_MS + ((i * 7919) % SCATTER) * 1000).toISOString(),
  };
}
