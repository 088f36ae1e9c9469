/** Output formats, field selection, ids only, and paging through `--all`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DETERMINATIONS_PREFIX as D } from '../../src/contract/operations.js';
import { type FakeServer, startFakeServer } from '../support/fake-server.js';
import { RECORD, pla, startContractServer, tempDir } from './support.js';

let server: FakeServer;
let pages: FakeServer;
let config: Awaited<ReturnType<typeof tempDir>>;

/** Three pages of two records each (shape B), page chosen by the query. */
function pagedReply(page: number) {
  const content = [1, 2].map((n) => ({ id: page * 2 + n, name: `r${page * 2 + n}`, meta: { page } }));
  return { status: 200, body: { content, page: { size: 2, number: page, totalElements: 6, totalPages: 3 } } };
}

beforeAll(async () => {
  [server, pages, config] = await Promise.all([
    startContractServer(),
    startFakeServer([{ method: 'GET', path: D, reply: (req) => pagedReply(Number(req.query.page ?? 0)) }]),
    tempDir(),
  ]);
});

afterAll(async () => {
  await Promise.all([server.close(), pages.close(), config.remove()]);
});

const run = (args: string[], on = server) => pla(args, { server: on, configDir: config.path });

describe('output', () => {
  it('prints json when stdout is piped, without -o', async () => {
    const out = await run(['det', 'get', '7']);
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(RECORD);
  });

  it('renders a record as a key/value table, nested values as compact JSON', async () => {
    const out = await run(['det', 'get', '7', '-o', 'table']);
    expect(out.stdout).toMatch(/│ name\s+│ alpha\s+│/);
    expect(out.stdout).toContain('{"a":1}');
    expect(out.stdout).not.toContain('\u001b['); // NO_COLOR
  });

  it('renders lists as rows in table, csv, ndjson and json', async () => {
    const [table, csv, ndjson, json] = await Promise.all(['table', 'csv', 'ndjson', 'json'].map((o) => run(['det', 'list', '-o', o])));
    expect(table?.stdout).toMatch(/│ id\s+│ name\s+│/);
    expect(table?.stdout).toMatch(/│ 8\s+│ beta\s+│/);
    expect(csv?.stdout.split('\n')[0]).toBe('id,name,status,updatedAt,tags');
    expect(csv?.stdout).toContain('8,beta,ACTIVE,2024-01-10T00:00:00.000Z,"{""a"":1}"');
    expect(
      ndjson?.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([7, 8]);
    expect(JSON.parse(json?.stdout ?? '').map((r: { id: number }) => r.id)).toEqual([7, 8]);
  });

  it('keeps only --fields, in their order', async () => {
    const [csv, json] = await Promise.all([run(['det', 'list', '-o', 'csv', '--fields', 'name,id']), run(['det', 'get', '7', '--fields', 'name,tags.a'])]);
    expect(csv.stdout).toBe('name,id\nalpha,7\nbeta,8\n');
    expect(JSON.parse(json.stdout)).toEqual({ name: 'alpha', 'tags.a': 1 });
  });

  it('takes --fields from the record itself, never from the object prototype', async () => {
    // Names the record does not have itself are unknown fields (an error after a read), not its prototype's.
    const out = await run(['det', 'get', '7', '-o', 'csv', '--fields', 'id,constructor,toString,tags.constructor']);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/^error: unknown fields in --fields: constructor, toString, tags\.constructor$/m);
    expect(out.stdout).toBe('');
    const known = await run(['det', 'get', '7', '-o', 'csv', '--fields', 'id,tags.a']);
    expect(known.stdout).toBe('id,tags.a\n7,1\n');
  });

  it('cuts a long table cell between characters, not inside an emoji', async () => {
    // 48 columns at most; an emoji takes two of them.
    const note = `${'a'.repeat(45)}😀😀😀`;
    const odd = await startFakeServer([{ method: 'GET', path: `${D}/9`, reply: { status: 200, body: { id: 9, note } } }]);
    try {
      const out = await run(['det', 'get', '9', '-o', 'table'], odd);
      expect(out.stdout).toContain(`${'a'.repeat(45)}😀…`);
      expect(out.stdout).not.toContain('\uFFFD');
    } finally {
      await odd.close();
    }
  });

  it("gives csv a column for every field of every record, not just the first record's", async () => {
    const mixed = await startFakeServer([
      {
        method: 'GET',
        path: D,
        reply: {
          status: 200,
          body: {
            content: [
              { id: 1, name: 'a' },
              { id: 2, name: 'b', decommissionedAt: '2024-01-01' },
            ],
            page: { size: 2, number: 0, totalElements: 2, totalPages: 1 },
          },
        },
      },
    ]);
    try {
      const [plain, chosen] = await Promise.all([
        run(['det', 'list', '--all', '-o', 'csv'], mixed),
        run(['det', 'list', '--all', '-o', 'csv', '--fields', 'id,decommissionedAt'], mixed),
      ]);
      expect(plain.stdout).toBe('id,name,decommissionedAt\n1,a,\n2,b,2024-01-01\n');
      expect(plain.stderr).toBe('');
      expect(chosen.stdout).toBe('id,decommissionedAt\n1,\n2,2024-01-01\n');
      expect(chosen.stderr).toBe('');
    } finally {
      await mixed.close();
    }
  });

  it('prints only ids with -q', async () => {
    const [list, one] = await Promise.all([run(['det', 'list', '-q']), run(['det', 'get', '7', '-q'])]);
    expect(list.stdout).toBe('7\n8\n');
    expect(one.stdout).toBe('7\n');
  });

  it('shows a count map as key/value rows in csv', async () => {
    const out = await run(['notif', 'count', 'ana', '-o', 'csv']);
    expect(out.stdout).toBe('key,count\ncount,3\n');
  });

  it('confirms a call without body on stderr and prints nothing on stdout', async () => {
    const out = await run(['notif', 'read', '101']);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('marked read notification 101');
  });

  it('streams every page with --all (ndjson, csv with one header, json array) and stops at --max-items', async () => {
    const [ndjson, csv, json, capped] = await Promise.all([
      run(['det', 'list', '--all', '-o', 'ndjson'], pages),
      run(['det', 'list', '--all', '-o', 'csv', '--fields', 'id,name'], pages),
      run(['det', 'list', '--all', '-o', 'json'], pages),
      run(['det', 'list', '--max-items', '3', '-o', 'ndjson'], pages),
    ]);
    expect(
      ndjson.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([1, 2, 3, 4, 5, 6]);
    expect(csv.stdout).toBe('id,name\n1,r1\n2,r2\n3,r3\n4,r4\n5,r5\n6,r6\n');
    expect(JSON.parse(json.stdout)).toHaveLength(6);
    expect(capped.stdout.trim().split('\n')).toHaveLength(3);
    const asked = pages.requests.map((r) => r.query.page);
    expect(asked.filter((p) => p === '2').length).toBeGreaterThan(0);
  });

  it('prints the OpenAPI document of the 52 operations', async () => {
    const out = await run(['openapi']);
    const doc = JSON.parse(out.stdout) as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.openapi).toBe('3.1.0');
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    expect(ids).toHaveLength(52);
  });

  it('makes raw calls with pla api, envelope kept', async () => {
    const out = await run(['api', 'get', `${D}/7`, '--param', 'x=1']);
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ success: true, data: { id: 7 } });
    const req = server.requests.at(-1);
    expect(req?.query).toEqual({ x: '1' });
  });
});
