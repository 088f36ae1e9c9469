/**
 * Exact numbers on the PostgreSQL store: exact-numbers.test.ts run there (its
 * server's sequence set past 2^53), and creates past id 2^53 each keep their own
 * record. node-postgres reads a bigint as text; read with `Number`, new ids
 * 9007199254740993 … 999 collapse onto even doubles and acknowledged creates
 * overwrite each other (7 creates answered, fewer rows kept).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/json-parse.js';
import { sequenceOf, tableOf } from '../../src/store/postgres/schema.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { runOnPostgres } from '../support/postgres.js';

const postgres = await runOnPostgres(() => import('./exact-numbers.test.js'));

describe('creates past id 2^53 on PostgreSQL', () => {
  let server: LocalServer;

  beforeAll(async () => {
    server = await startLocalServer({ seed: false });
    await postgres.current().query(`ALTER SEQUENCE ${sequenceOf('determinations')} RESTART WITH 9007199254740993`, [], server.storeUrl);
  }, 60_000);
  afterAll(() => server?.stop());

  it('seven creates, one at a time and together, keep seven records under seven exact ids', async () => {
    const printed: string[] = [];
    for (const code of ['PG-1', 'PG-2', 'PG-3']) {
      const created = await server.pla(['determinations', 'create', '--data', `{"code":"${code}"}`, '-q']);
      expect(created.exitCode, String(created.stderr)).toBe(0);
      printed.push(String(created.stdout).trim());
    }
    const together = await Promise.all(
      ['PG-4', 'PG-5', 'PG-6', 'PG-7'].map((code) => server.pla(['determinations', 'create', '--data', `{"code":"${code}"}`, '-q'])),
    );
    for (const created of together) {
      expect(created.exitCode, String(created.stderr)).toBe(0);
      printed.push(String(created.stdout).trim());
    }
    const expected = Array.from({ length: 7 }, (_, i) => String(9007199254740993n + BigInt(i)));
    expect([...printed].sort()).toEqual(expected);

    const rows = await postgres
      .current()
      .query<{ id: string; code: string }>(`SELECT id::text AS id, doc->>'code' AS code FROM ${tableOf('determinations')} ORDER BY id`, [], server.storeUrl);
    expect(rows.map((row) => row.id)).toEqual(expected);
    expect(new Set(rows.map((row) => row.code)).size).toBe(7);

    const listed = parseJson((await server.http('GET', '/api/v1/asset-transaction-type-determinations?size=100')).text) as { content: Array<{ id: unknown }> };
    expect(listed.content.map((record) => String(record.id))).toEqual(expected);
  });
});
