/**
 * The one run id: a receipt's name, the stem of a bulk run's Idempotency-Keys and
 * of its unknown-outcome file. `20261122-204512-031-3fa9`: start time (UTC, to
 * the millisecond) and a random tail, so names sort by time and never collide.
 */
import { randomBytes } from 'node:crypto';

export function newRunId(now = new Date()): string {
  const [date = '', time = ''] = now.toISOString().replace(/[-:Z]/g, '').split('T');
  const [seconds = '', millis = ''] = time.split('.');
  return `${date}-${seconds}-${millis}-${randomBytes(2).toString('hex')}`;
}
