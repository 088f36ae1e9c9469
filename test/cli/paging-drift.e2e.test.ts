/**
 * Paging that cannot lie against services the local server does not imitate (issue
 * 16 item 4): a test server of this file's own, Spring-style (shape A), whose
 * records change while the built CLI walks them with `--all` (records inserted
 * ahead of the cursor, records deleted behind it), one that numbers pages from 1 in
 * its parameters and its answers, one that cuts sizes and echoes the size asked for
 * (with page counts computed from it, as the issue found: 100 of 250 rows), and
 * Spring's one-indexed-parameters (100 of 350 rows repeated). Each run must print
 * every id exactly once and exit 0, or say the records changed and exit 9 (0 with
 * --allow-drift, with a warning); the ids printed are checked against the server's
 * records. `pla config detect` on the same servers finds and stores the form.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeReply, type FakeServer, type LoggedRequest } from '../support/fake-server.js';
import { pla, tempDir } from './support.js';

const LIST = '/api/v1/asset-transaction-type-determinations';

interface Row {
  id: number;
  name: string;
}

interface ServiceForm {
  /** Page parameter of the first page; a one-based service reads page=0 as page 1 too. */
  base?: 0 | 1;
  /** The answer's `number` counts from 1 (else from 0, as Spring's do whatever the parameters). */
  oneBasedNumbers?: boolean;
  /** Sizes above this are cut to it. */
  cap?: number;
  /** A cut page's size and page count are the size asked for (else the cut size). */
  echoRequested?: boolean;
  /** The data of reads by id under this key (`{"result": record}`); a missing id then answers 200 `{"result": null}`. */
  envelope?: string;
  /** Runs before page `page` (zero-based) is answered: the records changing during a walk. */
  beforePage?: (page: number, rows: Row[]) => void;
}

/** A Spring-style listing (shape A, sorted by name) and read by id over `rows`, as `form` says. */
function service(rows: Row[], form: ServiceForm = {}) {
  const list = (req: LoggedRequest): FakeReply => {
    const asked = Number(req.query.size ?? 20);
    const param = Number(req.query.page ?? 0);
    const page = form.base === 1 ? Math.max(param - 1, 0) : param;
    form.beforePage?.(page, rows);
    const size = form.cap !== undefined ? Math.min(asked, form.cap) : asked;
    const said = form.echoRequested ? asked : size;
    const sorted = [...rows].sort((a, b) => a.name.localeCompare(b.name));
    const content = sorted.slice(page * size, page * size + size);
    const totalPages = Math.ceil(sorted.length / said);
    const number = form.oneBasedNumbers ? page + 1 : page;
    return {
      body: {
        content,
        number,
        size: said,
        totalElements: sorted.length,
        totalPages,
        numberOfElements: content.length,
        first: page === 0,
        last: page >= totalPages - 1,
        empty: content.length === 0,
      },
    };
  };
  const get = (req: LoggedRequest): FakeReply => {
    const id = req.path.slice(LIST.length + 1);
    const row = rows.find((r) => String(r.id) === id);
    if (form.envelope) return { body: { [form.envelope]: row ?? null } };
    return row ? { body: row } : { status: 404, body: { title: 'Not Found', status: 404 } };
  };
  return [
    { method: 'GET', path: LIST, reply: list },
    { method: 'GET', path: new RegExp(`^${LIST}/\\d+$`), reply: get },
  ];
}

function rowsOf(count: number, prefix = 'm'): Row[] {
  return Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `${prefix}-${String(i).padStart(4, '0')}` }));
}

function printed(stdout: string): string[] {
  return stdout.split('\n').filter(Boolean);
}

const ids = (rows: Row[]) => [...rows].sort((a, b) => a.name.localeCompare(b.name)).map((r) => String(r.id));

let server: FakeServer;
let config: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());
afterEach(() => config?.remove());

async function run(args: string[]) {
  config = await tempDir();
  return pla(args, { server, configDir: config.path });
}

describe('records changing during --all', () => {
  it('a table nobody writes to: every id once, exit 0', async () => {
    const rows = rowsOf(55);
    server.setRoutes(service(rows));
    const result = await run(['det', 'list', '--all', '--size', '10', '-q']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual(ids(rows));
  });

  it('records inserted ahead of the cursor: no id twice, the drift said, exit 9; --allow-drift: a warning, exit 0', async () => {
    for (const allow of [false, true]) {
      const rows = rowsOf(55);
      let next = 1000;
      // Before pages 2 and 4, three records that sort first: the rest shift forward and come back.
      const beforePage = (page: number, all: Row[]) => {
        if (page === 2 || page === 4) for (let i = 0; i < 3; i++) all.push({ id: next, name: `a-${next++}` });
      };
      server.setRoutes(service(rows, { beforePage }));
      const result = await run(['det', 'list', '--all', '--size', '10', '-q', ...(allow ? ['--allow-drift'] : [])]);
      const seen = printed(result.stdout);
      expect(new Set(seen).size).toBe(seen.length);
      // Every id printed is a record the server holds; every record there from start to end was printed.
      expect(ids(rows)).toEqual(expect.arrayContaining(seen));
      expect(seen).toEqual(expect.arrayContaining(ids(rowsOf(55))));
      expect(result.stderr).toMatch(/changed while pla listed them/);
      expect(result.stderr).toMatch(/counted 55 records, then 58/);
      expect(result.exitCode, result.stderr).toBe(allow ? 0 : 9);
    }
  });

  it('records deleted behind the cursor: records skipped are reported, exit 9', async () => {
    const rows = rowsOf(55);
    // Before page 3, five records already listed go: the rest shift back under the cursor.
    const beforePage = (page: number, all: Row[]) => {
      if (page === 3) all.splice(0, 5);
    };
    server.setRoutes(service(rows, { beforePage }));
    const result = await run(['det', 'list', '--all', '--size', '10', '-q']);
    const seen = printed(result.stdout);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeLessThan(55);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/counted 55 records, then 50/);
    expect(result.stderr).toContain('--allow-drift');
  });
});

describe('page forms of other services', () => {
  it('pages numbered from 1 in the parameter and the answer: every id once, exit 0', async () => {
    const rows = rowsOf(47);
    server.setRoutes(service(rows, { base: 1, oneBasedNumbers: true }));
    const result = await run(['det', 'list', '--all', '--size', '10', '-q']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual(ids(rows));
    expect(result.stderr).toContain('numbers its pages from 1');
  });

  it('Spring one-indexed-parameters (350 rows): none repeated, none missing', async () => {
    const rows = rowsOf(350);
    server.setRoutes(service(rows, { base: 1 }));
    const result = await run(['det', 'list', '--all', '--size', '100', '-q']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual(ids(rows));
  });

  it('a size cut to 100 while the requested size is echoed (250 rows): all 250', async () => {
    const rows = rowsOf(250);
    server.setRoutes(service(rows, { cap: 100, echoRequested: true }));
    const result = await run(['det', 'list', '--all', '--size', '1000', '-q']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual(ids(rows));
    expect(result.stderr).toContain('at most 100 records a page');
  });

  it('pla config detect stores base, cap, envelope and soft 404; the same command then needs no probing', async () => {
    const rows = rowsOf(250);
    server.setRoutes(service(rows, { base: 1, oneBasedNumbers: true, cap: 100, echoRequested: true, envelope: 'result' }));
    config = await tempDir();
    const env = { configDir: config.path, env: { PLA_API_KEY: 'test-key-abcdef0123456789' } };
    expect((await pla(['config', 'set-url', server.url, '--env', 'qa'], env)).exitCode).toBe(0);
    const detect = await pla(['config', 'detect', '--env', 'qa', '-o', 'json'], env);
    expect(detect.exitCode, detect.stderr).toBe(0);
    const found = Object.fromEntries((JSON.parse(detect.stdout) as Array<{ setting: string; value: string }>).map((row) => [row.setting, row.value]));
    expect(found).toMatchObject({
      'page.shape': 'flat',
      'page.base': '1',
      'page.maxSize': '100',
      'page.sizeEcho': 'requested',
      'envelope.key': 'result',
      softNotFound: 'true',
    });

    const before = server.requests.length;
    const result = await pla(['det', 'list', '--all', '--size', '1000', '-q', '--env', 'qa'], env);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual(ids(rows));
    expect(result.stderr).toBe('');
    // Three pages of 100 (the first without page=, then from page=2), nothing else: the profile said base and cap.
    expect(server.requests.slice(before).map((r) => [r.query.page, r.query.size])).toEqual([
      [undefined, '100'],
      ['2', '100'],
      ['3', '100'],
    ]);
  });

  it('pla config detect on an empty listing stores only what it could tell, and says what it could not', async () => {
    server.setRoutes(service([]));
    const result = await run(['config', 'detect', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const found = Object.fromEntries((JSON.parse(result.stdout) as Array<{ setting: string; value: string }>).map((row) => [row.setting, row.value]));
    expect(found).toEqual({ 'page.shape': 'flat', failure: 'problem', softNotFound: 'false' });
    expect(result.stderr).toContain('not found out: page.base: the listing is empty');
    expect(result.stderr).toContain('not found out: envelope: no record to read');
  });

  it('ids past 2^53 that a double would merge are told apart: each printed once, exactly', async () => {
    // 2^53 + 1 … 2^53 + 6, as JSON text (a double reads them as three values): pages of 2.
    const ids = Array.from({ length: 6 }, (_, i) => (2n ** 53n + BigInt(i + 1)).toString());
    server.setRoutes([
      {
        method: 'GET',
        path: LIST,
        reply: (req) => {
          const page = Number(req.query.page ?? 0);
          const content = ids.slice(page * 2, page * 2 + 2).map((id) => `{"id":${id},"name":"n${id}"}`);
          return { body: `{"content":[${content.join(',')}],"number":${page},"size":2,"totalElements":6,"totalPages":3}` };
        },
      },
    ]);
    const result = await run(['det', 'list', '--all', '--size', '2', '-q']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual(ids);
  });
});
