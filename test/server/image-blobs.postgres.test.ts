/**
 * Image bytes on the PostgreSQL store live exactly as long as an image record refers
 * to them, kept by the database in the transactions that change the records: no
 * kill can come between a delete and its release (there is no such moment), an
 * upload that fails leaves no bytes, a reset takes them all, and bytes an earlier
 * release orphaned are removed by migration 4. Through the real server and a real
 * PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { eventually } from '../support/eventually.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';

let postgres: TestPostgres;
let server: LocalServer;
let storeUrl: string;

beforeAll(async () => {
  postgres = await startTestPostgres();
  storeUrl = await postgres.createDatabase();
  server = await startLocalServer({ storeUrl, seed: false });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await postgres?.cluster.close();
});

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

/** Uploads `data` as an image; resolves with the new image's id. */
async function upload(data: string): Promise<number> {
  const body = Buffer.from(
    `--XB\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${data}\r\n--XB\r\nContent-Disposition: form-data; name="image"\r\n\r\n{"service":"lease"}\r\n--XB--\r\n`,
  );
  const result = await server.http('POST', '/api/images', { body, headers: { 'content-type': 'multipart/form-data; boundary=XB' } });
  expect(result.status).toBe(201);
  return Number(result.headers.location?.split('/').pop());
}

/** The hashes whose bytes the database keeps. */
async function blobs(url = storeUrl): Promise<string[]> {
  return (await postgres.query<{ sha256: string }>('SELECT sha256 FROM pla_blobs ORDER BY sha256', [], url)).map((row) => row.sha256);
}

/** Hashes kept with no image record referring to them. */
async function orphans(url = storeUrl): Promise<string[]> {
  const rows = await postgres.query<{ sha256: string }>(
    `SELECT sha256 FROM pla_blobs b WHERE NOT EXISTS (SELECT 1 FROM images i WHERE i.record->>'sha256' = b.sha256)`,
    [],
    url,
  );
  return rows.map((row) => row.sha256);
}

describe('image bytes in PostgreSQL', () => {
  it('bytes shared by two images stay until the last of them is deleted', async () => {
    const bytes = 'png-shared-by-two';
    const [first, second] = [await upload(bytes), await upload(bytes)];
    expect(await blobs()).toContain(sha256(bytes));
    expect((await server.http('DELETE', `/api/images/${first}`)).status).toBe(204);
    expect(await blobs()).toContain(sha256(bytes));
    expect((await server.http('DELETE', `/api/images/${second}`)).status).toBe(204);
    expect(await blobs()).not.toContain(sha256(bytes));
  });

  it('the bytes go in the transaction that deletes the last record: rolled back, both stay; committed, both go (no moment between for a kill)', async () => {
    const bytes = 'png-deleted-by-any-transaction';
    const id = await upload(bytes);
    const client = new (await import('pg')).default.Client({ connectionString: storeUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM images WHERE id = $1', [id]);
      const inside = await client.query('SELECT count(*)::int AS n FROM pla_blobs WHERE sha256 = $1', [sha256(bytes)]);
      expect(inside.rows[0]).toEqual({ n: 0 });
      await client.query('ROLLBACK');
      expect(await blobs()).toContain(sha256(bytes));
      const records = await postgres.query<{ n: number }>('SELECT count(*)::int AS n FROM images WHERE id = $1', [id], storeUrl);
      expect(records[0]?.n).toBe(1);
      // What a server killed right after committing its delete leaves behind: no bytes either.
      await client.query('DELETE FROM images WHERE id = $1', [id]);
      expect(await blobs()).not.toContain(sha256(bytes));
    } finally {
      await client.end();
    }
  });

  it('a transaction that writes bytes and then fails leaves none', async () => {
    const store = await openPostgresStore({ url: storeUrl });
    try {
      const failed = store.transaction(async (tx) => {
        await tx.blobs?.put(sha256('never-stored'), Buffer.from('never-stored'));
        throw new Error('the record could not be stored');
      });
      await expect(failed).rejects.toThrow('the record could not be stored');
      expect(await blobs()).not.toContain(sha256('never-stored'));
    } finally {
      await store.close();
    }
  });

  it('100 rounds of deleting an image while the same bytes are uploaded again: the live image keeps its bytes, and nothing is left orphaned', async () => {
    const live: Array<{ id: number; hash: string }> = [];
    for (let round = 0; round < 100; round += 1) {
      const bytes = `png-race-round-${round}`;
      const first = await upload(bytes);
      const [deleted, second] = await Promise.all([server.http('DELETE', `/api/images/${first}`), upload(bytes)]);
      expect(deleted.status).toBe(204);
      live.push({ id: second, hash: sha256(bytes) });
    }
    const kept = new Set(await blobs());
    expect(live.filter(({ hash }) => !kept.has(hash))).toEqual([]);
    expect(await orphans()).toEqual([]);
    for (const { id } of live) expect((await server.http('DELETE', `/api/images/${id}`)).status).toBe(204);
    expect(await blobs()).toEqual([]);
  });

  it('a reset racing an upload of bytes already stored waits for it: no record is left without its bytes', async () => {
    // The interleaving the upload handler allows (hash lock, place, allocate; then the record at commit),
    // with a reset's TRUNCATE run in between, ordered by explicit barriers rather than sleeps.
    const url = await postgres.createDatabase();
    const store = await openPostgresStore({ url });
    try {
      const hash = sha256('png-raced-by-a-reset');
      const bytes = Buffer.from('png-raced-by-a-reset');
      await store.transaction(async (tx) => {
        await tx.blobs?.put(hash, bytes);
        const [id] = await tx.allocateIds('images', 1);
        tx.put('images', { id: id as number, sha256: hash });
      });
      let paused!: () => void;
      const uploadPaused = new Promise<void>((resolve) => (paused = resolve));
      let resume!: () => void;
      const resumed = new Promise<void>((resolve) => (resume = resolve));
      const uploading = store.transaction(async (tx) => {
        await tx.lock(`image:${hash}`);
        await tx.blobs?.put(hash, bytes); // already there: ON CONFLICT DO NOTHING
        const [id] = await tx.allocateIds('images', 1);
        paused();
        await resumed;
        tx.put('images', { id: id as number, sha256: hash });
      });
      await uploadPaused;
      let resetDone = false;
      const resetting = store.transaction(async (tx) => tx.clear()).finally(() => (resetDone = true));
      // The upload goes on once the reset has either finished or waits for a lock (the upload's).
      await eventually(async () => {
        if (resetDone) return true;
        const rows = await postgres.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          [],
          url,
        );
        return (rows[0]?.n ?? 0) > 0;
      });
      resume();
      await Promise.all([uploading, resetting]);
      const records = await postgres.query<{ sha256: string }>(`SELECT record->>'sha256' AS sha256 FROM images`, [], url);
      const kept = new Set(await blobs(url));
      expect(records.filter((record) => !kept.has(record.sha256))).toEqual([]);
      expect(records).toEqual([]); // the reset came last: it waited for the upload, and took its record and bytes
      expect(await orphans(url)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a reset takes every byte with the records, in its transaction', async () => {
    await upload('png-before-reset');
    expect((await blobs()).length).toBeGreaterThan(0);
    expect((await server.http('POST', '/_admin/reset')).status).toBe(200);
    expect(await blobs()).toEqual([]);
  });

  it('migration 4 removes bytes an earlier release left without a record, and keeps the others', async () => {
    // The database as schema 3 left it after a kill between a delete and its release.
    const url = await postgres.createDatabaseAt(3);
    const [kept, orphaned] = [sha256('kept'), sha256('orphaned')];
    await postgres.query(`INSERT INTO pla_blobs (sha256, bytes) VALUES ($1, 'kept'), ($2, 'orphaned')`, [kept, orphaned], url);
    await postgres.query(`INSERT INTO images (id, doc) VALUES (1, $1)`, [JSON.stringify({ id: 1, sha256: kept })], url);

    const store = await openPostgresStore({ url });
    await store.close();
    expect(await blobs(url)).toEqual([kept]);
  });
});
