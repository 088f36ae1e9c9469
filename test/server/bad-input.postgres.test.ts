/** The tests of bad-input.test.ts, on the PostgreSQL store (a real one, started for this file). */
import { runOnPostgres } from '../support/postgres.js';

await runOnPostgres(() => import('./bad-input.test.js'));
