// The records of bench/million.mjs: bench/server.mjs's determination with 7 short fields
// besides its id (no status or createdAt), about 170 bytes of JSON.
import { determination } from './server-records.mjs';

/** Determination number `i` (1-based), about 170 bytes of JSON. */
export function shortDetermination(i) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { status, createdAt, ...short } = determination(i);
  return short;
}
