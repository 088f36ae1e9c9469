/** The tests of bad-input.test.ts, on the PostgreSQL store (a real one, started for this file). */
import { expect, it } from 'vitest';
import { startLocalServer } from '../support/local-server.js';
import { usePostgresStore } from '../support/postgres.js';

usePostgresStore();
await import('./bad-input.test.js');

it('ran those servers on PostgreSQL', async () => {
  const server = await startLocalServer();
  try {
    expect((await server.http('GET', '/_admin/health')).body).toMatchObject({ store: { backend: 'postgres', state: 'ok' } });
  } finally {
    await server.stop();
  }
});
