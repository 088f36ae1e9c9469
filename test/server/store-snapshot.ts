/** Reads back what the tests check for "nothing changed": every collection reachable over HTTP. */
import type { LocalServer } from '../support/local-server.js';

const LISTS = [
  '/api/v1/asset-transaction-type-determinations?size=1000',
  '/api/v1/system-financial-settings?size=1000',
  '/api/v1/batch/mass-inter-company-transfer/tasks?size=1000',
  '/api/notifications/alice?size=1000',
  '/api/notifications/bob?size=1000',
  '/api/topics/lease',
];

export async function readEverything(server: LocalServer): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (const path of LISTS) bodies.push((await server.http('GET', path)).body);
  bodies.push(((await server.http('GET', '/_admin/health')).body as { records: unknown }).records);
  return bodies;
}
