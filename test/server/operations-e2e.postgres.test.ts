/** The tests of operations-e2e.test.ts, on the PostgreSQL store (a real one, started for this file). */
import { runOnPostgres } from '../support/postgres.js';

await runOnPostgres(() => import('./operations-e2e.test.js'));
