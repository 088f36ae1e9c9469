// The limit for bench/store.mjs: a bare node:http server on a pg pool that runs the
// very SQL pla's PostgreSQL store runs for each measured request, and nothing else
// (no routing library, no key check, no validation, no envelope).
//   node bench/store-bare.mjs <postgres url>
// Routes: GET /page/id?offset=N, GET /page/updated?offset=N, GET /get/<id>,
// POST /create (a JSON record), PUT /bulk (a JSON array of records with ids).
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.argv[2], max: 10 });
const COUNT = `SELECT COALESCE(sum(delta), 0)::float8 AS n, count(*)::int AS parts FROM pla_row_counts WHERE collection = $1`;
// Pages as the store reads them (src/store/postgres/sql.ts, pageSql): the page's ids
// from the index alone, then those records.
const BY_ID = `SELECT t.doc FROM unnest(ARRAY(SELECT id FROM determinations  ORDER BY id ASC LIMIT $1 OFFSET $2)) WITH ORDINALITY AS page(id, n) JOIN determinations t ON t.id = page.id ORDER BY page.n`;
const BY_UPDATED = `SELECT t.doc FROM unnest(ARRAY(SELECT id FROM determinations  ORDER BY updated_at_kind DESC, updated_at_text DESC, updated_at DESC, id DESC LIMIT $1 OFFSET $2)) WITH ORDINALITY AS page(id, n) JOIN determinations t ON t.id = page.id ORDER BY page.n`;
const GET = `SELECT doc FROM determinations WHERE id = $1`;
const NEXT_IDS = `SELECT nextval('determinations_id_seq') AS id FROM generate_series(1, $1::int) ORDER BY 1`;
const LOCK_MANY = `SELECT doc FROM determinations WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`;
const UPSERT = `INSERT INTO determinations (id, doc) SELECT * FROM unnest($1::bigint[], $2::json[])
         ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`;

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function page(sql, offset) {
  const [rows, count] = await Promise.all([pool.query(sql, [20, offset]), pool.query(COUNT, ['determinations'])]);
  return { content: rows.rows.map((row) => row.doc), page: { size: 20, totalElements: count.rows[0].n } };
}

async function transaction(work) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function answer(req) {
  const url = new URL(req.url, 'http://bare');
  const offset = Number(url.searchParams.get('offset') ?? 0);
  if (url.pathname === '/page/id') return page(BY_ID, offset);
  if (url.pathname === '/page/updated') return page(BY_UPDATED, offset);
  if (url.pathname.startsWith('/get/')) return (await pool.query(GET, [Number(url.pathname.slice(5))])).rows[0]?.doc;
  if (url.pathname === '/create') {
    const fields = await body(req);
    return transaction(async (client) => {
      const id = Number((await client.query(NEXT_IDS, [1])).rows[0].id);
      const record = { id, ...fields, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() };
      await client.query(UPSERT, [[id], [JSON.stringify(record)]]);
      return record;
    });
  }
  if (url.pathname === '/bulk') {
    const records = await body(req);
    return transaction(async (client) => {
      const existing = new Map((await client.query(LOCK_MANY, [records.map((r) => r.id)])).rows.map((row) => [row.doc.id, row.doc]));
      const now = new Date().toISOString();
      const merged = records.map((r) => ({ ...existing.get(r.id), ...r, updatedAt: now }));
      await client.query(UPSERT, [merged.map((r) => r.id), merged.map((r) => JSON.stringify(r))]);
      return merged;
    });
  }
  return undefined;
}

const server = createServer((req, res) => {
  answer(req).then(
    (value) => {
      const text = JSON.stringify(value ?? null);
      res.writeHead(value === undefined ? 404 : 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    },
    (error) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    },
  );
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
