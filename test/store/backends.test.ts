/**
 * The store interface on both backends: the same records and the same declarative
 * queries give the same answers on the JSON-file store and on a real PostgreSQL;
 * transactions are all or nothing and lose no update under concurrency; migrations
 * run once however many processes open a new database at the same time.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/json-parse.js';
import { openJsonStore } from '../../src/store/index.js';
import type { PageQuery, RecordId, Store, StoredRecord } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { MIGRATIONS } from '../../src/store/postgres/schema.js';
import { Params, pageSql } from '../../src/store/postgres/sql.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import { tempDir } from './temp-dirs.js';

let postgres: TestPostgres;
/** The file store, and PostgreSQL on a database of the C locale and on one of a language's collation (ICU en-US), where jsonb alone would sort `a, arr, B`. */
const stores: Record<'json-file' | 'postgres' | 'postgres-icu', Store> = {} as Record<'json-file' | 'postgres' | 'postgres-icu', Store>;

/** Records with mixed, missing and nested values, so that the rules at the edges are compared too. */
const RECORDS: Array<Record<string, unknown>> = [
  { code: 'b', amount: 10, status: 'ACTIVE', service: 'Mobile', owner: { name: 'Zoe', level: 2 }, tags: ['x'], updatedAt: '2024-01-03T00:00:00.000Z' },
  { code: 'a', amount: 2.5, status: 'ACTIVE', service: 'web', owner: { name: 'adam', level: 1 }, updatedAt: '2024-01-01T00:00:00.000Z' },
  { code: 'c', amount: 10, status: 'DECOMMISSIONED', service: 'MOBILE', owner: { name: 'Bea' }, updatedAt: '2024-01-02T00:00:00.000Z' },
  { code: 'd', amount: '7', status: 'ACTIVE', viewed: true, updatedAt: '2024-01-05T00:00:00.000Z' },
  { code: 'e', status: null, viewed: false, tags: ['x', 'y'], updatedAt: '2024-01-04T00:00:00.000Z' },
  { code: 'f', amount: -1, status: 'ACTIVE', flag: true, 'owner.name': 'literal', updatedAt: '2024-01-04T00:00:00.000Z' },
  { code: 'g', amount: 10, flag: false, owner: { name: 'Zoe', level: 3 } },
  // null and missing mixed, in fields kept in sort columns (updatedAt, createdAt) and in others (amount, owner.level)
  { code: 'h', amount: null, updatedAt: null, createdAt: null, owner: { name: 'Hal', level: null } },
  { code: 'i', createdAt: '2024-02-01T00:00:00.000Z', owner: null },
  { code: 'j', amount: null, updatedAt: null, createdAt: '2024-02-01T00:00:00.000Z', owner: { level: 2 } },
  { code: 'k', createdAt: null },
  // strings that a language's collation orders otherwise than code order
  { code: 'l', service: 'arr', updatedAt: 'B', createdAt: 'a' },
  { code: 'm', service: 'B', updatedAt: 'arr', createdAt: 'B' },
  { code: 'n', service: 'a', updatedAt: 'a', createdAt: 'arr' },
];

const QUERIES: Array<[string, Omit<PageQuery, 'offset' | 'limit'>]> = [
  ['no conditions', {}],
  ['equals string', { where: [{ field: 'status', equals: 'ACTIVE' }] }],
  ['equals number (2.5)', { where: [{ field: 'amount', equals: 2.5 }] }],
  ['equals null', { where: [{ field: 'status', equals: null }] }],
  ['equals array', { where: [{ field: 'tags', equals: ['x'] }] }],
  ['equals object', { where: [{ field: 'owner', equals: { level: 1, name: 'adam' } }] }],
  ['not equals (missing matches)', { where: [{ field: 'viewed', notEquals: true }] }],
  ['any of, mixed kinds', { where: [{ field: 'amount', anyOf: [10, '7', -1] }] }],
  ['equals ignoring case', { where: [{ field: 'service', equalsIgnoreCase: 'mobile' }] }],
  ['number range', { where: [{ field: 'amount', range: { from: 0, to: 10 } }] }],
  ['string range, exclusive end', { where: [{ field: 'updatedAt', range: { from: '2024-01-02', before: '2024-01-04T00:00:00.000Z' } }] }],
  ['range of another kind matches nothing', { where: [{ field: 'amount', range: { from: '0' } }] }],
  ['nested field', { where: [{ field: 'owner.name', equals: 'Zoe' }] }],
  ['own dotted key wins', { where: [{ field: 'owner.name', equals: 'literal' }] }],
  [
    'two conditions',
    {
      where: [
        { field: 'status', equals: 'ACTIVE' },
        { field: 'amount', range: { to: 5 } },
      ],
    },
  ],
  ['sort by string desc', { sort: [{ field: 'updatedAt', direction: 'desc' }] }],
  ['sort by mixed kinds asc (missing last)', { sort: [{ field: 'amount', direction: 'asc' }] }],
  ['sort by mixed kinds desc (missing first)', { sort: [{ field: 'amount', direction: 'desc' }] }],
  [
    'sort by two keys',
    {
      sort: [
        { field: 'amount', direction: 'desc' },
        { field: 'code', direction: 'asc' },
      ],
    },
  ],
  ['sort by nested field', { sort: [{ field: 'owner.level', direction: 'asc' }] }],
  ['sort by booleans', { sort: [{ field: 'flag', direction: 'asc' }] }],
  ['id descending', { sort: [{ field: 'id', direction: 'desc' }] }],
  ['filter and sort', { where: [{ field: 'amount', range: { from: 0 } }], sort: [{ field: 'updatedAt', direction: 'asc' }] }],
  ['sort column, null and missing, asc', { sort: [{ field: 'updatedAt', direction: 'asc' }] }],
  ['sort column, null and missing, desc', { sort: [{ field: 'createdAt', direction: 'desc' }] }],
  [
    'sort column asc, then a field with null and missing',
    {
      sort: [
        { field: 'createdAt', direction: 'asc' },
        { field: 'amount', direction: 'desc' },
      ],
    },
  ],
  ['nested field, null and missing, desc', { sort: [{ field: 'owner.level', direction: 'desc' }] }],
  // Upper and lower case, prefixes: code order (B, a, arr) whatever the database's collation.
  ['strings by code point asc', { sort: [{ field: 'service', direction: 'asc' }] }],
  ['strings by code point desc, in a sort column', { sort: [{ field: 'updatedAt', direction: 'desc' }] }],
  ['string range by code point', { where: [{ field: 'service', range: { from: 'M', before: 'a' } }] }],
  ['string range by code point, in a sort column', { where: [{ field: 'updatedAt', range: { from: 'B' } }] }],
];

beforeAll(async () => {
  postgres = await startTestPostgres();
  stores['postgres'] = await openPostgresStore({ url: await postgres.createDatabase() });
  stores['postgres-icu'] = await openPostgresStore({ url: await postgres.createDatabase("TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'") });
  stores['json-file'] = await openJsonStore({ dir: await tempDir(), warn: () => {} });
  for (const store of Object.values(stores)) {
    await store.transaction(async (tx) => {
      const ids = await tx.allocateIds('determinations', RECORDS.length);
      RECORDS.forEach((fields, i) => tx.put('determinations', { id: ids[i] as number, ...fields }));
    });
  }
}, 120_000);

afterAll(async () => {
  for (const store of Object.values(stores)) await store?.close().catch(() => {});
  await postgres?.cluster.close();
});

const codes = (records: StoredRecord[]) => records.map((record) => record.code);

describe('the same answers on both backends', () => {
  it.each(QUERIES)('%s', async (_name, query) => {
    const answers = [];
    for (const store of Object.values(stores)) {
      const all = await store.find('determinations', query);
      // Pages at every offset, so that each boundary (between kinds, null and missing, equal values) falls inside one.
      const pages = [];
      for (let offset = 0; offset <= all.length; offset += 1) {
        const page = await store.page('determinations', { ...query, offset, limit: 2 });
        pages.push({ offset, items: codes(page.items), total: page.total });
      }
      const count = await store.count('determinations', query.where);
      answers.push({ all: codes(all), pages, count });
    }
    const [json, ...postgresAnswers] = answers;
    for (const answer of postgresAnswers) expect(answer).toEqual(json);
    expect(json?.count).toBe(json?.all.length);
    for (const page of json?.pages ?? []) {
      expect(page.total).toBe(json?.all.length);
      expect(page.items).toEqual(json?.all.slice(page.offset, page.offset + 2));
    }
  });

  it('known answers for a few of them', async () => {
    const store = stores['postgres'];
    expect(codes(await store.find('determinations', { where: [{ field: 'service', equalsIgnoreCase: 'mobile' }] }))).toEqual(['b', 'c']);
    expect(codes(await store.find('determinations', { where: [{ field: 'owner.name', equals: 'Zoe' }] }))).toEqual(['b', 'g']);
    // Ascending: values, then null (h, j), then missing (e, i, k, …); descending: missing, then null, then values.
    expect(codes(await store.find('determinations', { sort: [{ field: 'amount', direction: 'asc' }] }))).toEqual([
      'f',
      'a',
      'b',
      'c',
      'g',
      'd',
      'h',
      'j',
      'e',
      'i',
      'k',
      'l',
      'm',
      'n',
    ]);
    expect(codes(await store.find('determinations', { sort: [{ field: 'createdAt', direction: 'desc' }] }))).toEqual([
      'g',
      'f',
      'e',
      'd',
      'c',
      'a',
      'b',
      'k',
      'h',
      'n',
      'l',
      'm',
      'j',
      'i',
    ]);
    expect(codes(await store.find('determinations', { where: [{ field: 'viewed', notEquals: true }] }))).toEqual([
      'b',
      'a',
      'c',
      'e',
      'f',
      'g',
      'h',
      'i',
      'j',
      'k',
      'l',
      'm',
      'n',
    ]);
    // Code order on a database of a language's collation too: B, MOBILE, Mobile, a, arr, web.
    expect(codes(await stores['postgres-icu'].find('determinations', { sort: [{ field: 'service', direction: 'asc' }] }))).toEqual([
      'm',
      'c',
      'b',
      'n',
      'l',
      'a',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i',
      'j',
      'k',
    ]);
  });
});

describe('numbers past a double, the same on both backends', () => {
  /** Amounts a double would make equal (…567.89 and …567.9 are both …568 as doubles) and ids past 2^53. */
  const EXACT: Array<[string, string]> = [
    ['p', '12345678901234567.89'],
    ['q', '12345678901234567.9'],
    ['r', '9007199254740993'],
    ['s', '9007199254740992'],
    ['t', '1e400'],
    ['u', '-12345678901234567.89'],
    ['v', '5'],
  ];
  const value = (text: string) => (parseJson(`[${text}]`) as unknown[])[0];

  beforeAll(async () => {
    for (const store of Object.values(stores)) {
      await store.transaction(async (tx) => {
        const ids = await tx.allocateIds('tasks', EXACT.length);
        EXACT.forEach(([code, amount], i) => tx.put('tasks', { id: ids[i] as RecordId, code, amount: value(amount) }));
      });
    }
  });

  const EXACT_QUERIES: Array<[string, Omit<PageQuery, 'offset' | 'limit'>, string[]]> = [
    ['sort asc', { sort: [{ field: 'amount', direction: 'asc' }] }, ['u', 'v', 's', 'r', 'p', 'q', 't']],
    ['sort desc', { sort: [{ field: 'amount', direction: 'desc' }] }, ['t', 'q', 'p', 'r', 's', 'v', 'u']],
    [
      'range between two amounts a double makes equal',
      { where: [{ field: 'amount', range: { from: value('12345678901234567.895'), to: value('1e401') } }] },
      ['q', 't'],
    ],
    ['range past 2^53', { where: [{ field: 'amount', range: { from: 9007199254740993n, before: value('12345678901234567.9') } }] }, ['p', 'r']],
    ['equals an exact amount', { where: [{ field: 'amount', equals: value('12345678901234567.89') }] }, ['p']],
    ['equals an id past 2^53', { where: [{ field: 'amount', equals: 9007199254740993n }] }, ['r']],
    ['any of', { where: [{ field: 'amount', anyOf: [value('9007199254740992'), value('-12345678901234567.89')] }] }, ['s', 'u']],
  ];

  it.each(EXACT_QUERIES)('%s', async (_name, query, expected) => {
    for (const [backend, store] of Object.entries(stores)) expect(codes(await store.find('tasks', query)), backend).toEqual(expected);
  });

  it('reads every amount back as written', async () => {
    for (const [backend, store] of Object.entries(stores)) {
      const records = await store.find('tasks', { where: [{ field: 'code', anyOf: EXACT.map(([code]) => code) }] });
      expect(
        records.map((record) => [record.code, String(record.amount)]),
        backend,
      ).toEqual(EXACT);
    }
  });
});

describe.each(['json-file', 'postgres'] as const)('transactions on %s', (backend) => {
  it('apply nothing when the work throws, and ids are never reused', async () => {
    const store = stores[backend];
    const before = await store.count('settings');
    let lost = 0;
    await expect(
      store.transaction(async (tx) => {
        [lost] = (await tx.allocateIds('settings', 1)) as [number];
        tx.put('settings', { id: lost, key: 'never' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await store.count('settings')).toBe(before);
    expect(await store.get('settings', lost)).toBeUndefined();
    const [next] = await store.transaction((tx) => tx.allocateIds('settings', 1));
    expect(next).toBeGreaterThan(lost);
  });

  it('lose no update when many read and write one record at once', async () => {
    const store = stores[backend];
    const [id] = (await store.transaction(async (tx) => {
      const ids = await tx.allocateIds('settings', 1);
      tx.put('settings', { id: ids[0] as number, key: 'counter', value: 0 });
      return ids;
    })) as [number];
    await Promise.all(
      Array.from({ length: 30 }, () =>
        store.transaction(async (tx) => {
          const current = (await tx.get('settings', id)) as StoredRecord;
          tx.put('settings', { ...current, value: (current.value as number) + 1 });
        }),
      ),
    );
    expect((await store.get('settings', id))?.value).toBe(30);
  });

  it('reads in a transaction see its own staged changes', async () => {
    const store = stores[backend];
    await store.transaction(async (tx) => {
      const [id] = (await tx.allocateIds('topics', 1)) as [number];
      tx.put('topics', { id, service: 'staged' });
      expect((await tx.get('topics', id))?.service).toBe('staged');
      expect(codesOf(await tx.find('topics', { where: [{ field: 'service', equals: 'staged' }] }))).toEqual([id]);
      tx.delete('topics', id);
      expect(await tx.get('topics', id)).toBeUndefined();
      expect(await tx.count('topics', [{ field: 'service', equals: 'staged' }])).toBe(0);
    });
  });
});

function codesOf(records: StoredRecord[]): RecordId[] {
  return records.map((record) => record.id);
}

describe('PostgreSQL schema', () => {
  it('migrates once when several processes open a new database at the same time', async () => {
    const url = await postgres.createDatabase();
    const opened = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ url })));
    await Promise.all(opened.map((store) => store.close()));
    const rows = await postgres.query<{ version: number }>('SELECT version FROM pla_migrations', [], url);
    expect(rows.map((row) => row.version).sort()).toEqual(MIGRATIONS.map((migration) => migration.version));
  });

  it('picks the ids of a deep page sorted by updatedAt or createdAt from the index alone (index-only scan), then fetches the page', async () => {
    const url = await postgres.createDatabase();
    const store = await openPostgresStore({ url });
    await store.close();
    for (const field of ['updatedAt', 'createdAt']) {
      const params = new Params();
      const text = pageSql('determinations', { sort: [{ field, direction: 'desc' }], offset: 10_000, limit: 20 }, params);
      // An empty table costs nothing either way: forbid the plans that read every row so the one chosen shows what the index can do.
      const planner = `${url}?options=${encodeURIComponent('-c enable_seqscan=off -c enable_sort=off')}`;
      const plan = await postgres.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params.values, planner);
      const lines = plan.map((row) => row['QUERY PLAN']).join('\n');
      expect(lines).toContain(`Index Only Scan Backward using determinations_${field === 'updatedAt' ? 'updated' : 'created'}_at on determinations`);
    }
    // A user's notifications newest first (strings by code point since migration 5) still read in index order, without a sort.
    const params = new Params();
    const text = pageSql(
      'notifications',
      { where: [{ field: 'forUserId', equals: 'u1' }], sort: [{ field: 'createdDate', direction: 'desc' }], offset: 0, limit: 20 },
      params,
    );
    const plan = await postgres.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN ${text}`,
      params.values,
      `${url}?options=${encodeURIComponent('-c enable_seqscan=off -c enable_sort=off')}`,
    );
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index (Only )?Scan Backward using notifications_user_newest on notifications/);
  });

  it("the bench's bare reference (bench/store-bare.mjs) runs the very page SQL the store runs", async () => {
    const bare = await readFile(new URL('../../bench/store-bare.mjs', import.meta.url), 'utf8');
    for (const sort of [[{ field: 'id', direction: 'asc' }], [{ field: 'updatedAt', direction: 'desc' }]] as const) {
      expect(bare).toContain(pageSql('determinations', { sort: [...sort], offset: 0, limit: 20 }, new Params()));
    }
  });

  it('migration 3 (sort columns) upgrades a database holding records: pages sort as before', async () => {
    // The database as the previous release left it: migrations 1 and 2 only, with records.
    const url = await postgres.createDatabaseAt(2);
    const docs = RECORDS.map((fields, i) => JSON.stringify({ id: i + 1, ...fields }));
    await postgres.query('INSERT INTO determinations (id, doc) SELECT * FROM unnest($1::bigint[], $2::json[])', [docs.map((_, i) => i + 1), docs], url);

    const store = await openPostgresStore({ url });
    try {
      const page = await store.page('determinations', { sort: [{ field: 'updatedAt', direction: 'desc' }], offset: 0, limit: 10 });
      const json = stores['json-file'];
      const expected = await json.page('determinations', { sort: [{ field: 'updatedAt', direction: 'desc' }], offset: 0, limit: 10 });
      expect(codes(page.items)).toEqual(codes(expected.items));
      expect(page.total).toBe(RECORDS.length);
      const columns = await postgres.query<{ n: string }>(
        `SELECT count(*) AS n FROM determinations WHERE updated_at = record->'updatedAt' AND updated_at_kind = pla_kind(record->'updatedAt')`,
        [],
        url,
      );
      expect(Number(columns[0]?.n)).toBe(RECORDS.filter((record) => 'updatedAt' in record).length);
    } finally {
      await store.close();
    }
  });
});
