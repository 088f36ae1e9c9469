// The records of bench/million.mjs, as a user sends them to the API: the fields a
// spreadsheet of determinations holds (code, name, transaction type, company, two
// accounts, an amount, whether in use), some with a free-text note (accents, quotes)
// and some decommissioned. The server adds id, createdAt, updatedAt and status (and
// decommissionedAt), so a stored record is about 280 bytes of JSON.

import { determinationFields } from './server-records.mjs';

const NOTES = ['Reclassé après l\'audit "Q3"', 'split 60/40 between entities', 'see ticket FIN-2211 — manual review', 'Übertrag aus Altanlage'];

/** The body of determination number `i` (1-based) as a user would POST it. */
export function userDetermination(i) {
  const body = {
    code: `DET-${String(i).padStart(7, '0')}`,
    ...determinationFields(i),
    inUse: i % 3 !== 0,
  };
  if (i % 10 === 0) body.note = NOTES[(i / 10) % NOTES.length];
  if (i % 50 === 0) body.status = 'DECOMMISSIONED';
  return body;
}
