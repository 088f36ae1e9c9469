/**
 * The `Idempotency-Key` of one request of a bulk run: from the run id (kept in the
 * checkpoint), the batch (and which half of which half, once split) and a hash of
 * what is sent. A resumed run repeats a request under the key it had, so a service
 * that keeps keys replays it; changed input gets a new key. Its own module: only
 * bulk runs pay for loading node:crypto.
 */
import { createHash } from 'node:crypto';
import { jsonText } from '../json/json-text.js';

export function requestKey(runId: string, part: string, values: unknown[]): string {
  const hash = createHash('sha256').update(jsonText(values)).digest('hex').slice(0, 16);
  return `pla-${runId}-${part}-${hash}`;
}
