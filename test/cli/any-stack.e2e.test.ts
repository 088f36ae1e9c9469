/**
 * pla against services of the interface built on other stacks
 * (test/support/any-stack-service.ts): every listing form read to its end (OData
 * v4 and v2, HAL, a bare array with `Link` and `X-Total-Count`, cursors that ignore
 * `page`, ASP.NET's PascalCase and `Result<T>`, Spring's `{"content": <page>}`), and
 * the cases where pla used to exit 0 while its output or the service's state said
 * otherwise. Each runs twice: without a profile (URL and key from variables), and
 * after `pla config detect` stored one. Each asserts the exit code, what was
 * printed and what the service holds afterwards.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnyStackOptions, LISTING_FORMS, type ListingForm, manyDeterminations, startAnyStackService } from '../support/any-stack-service.js';
import type { SpringStyleService, WriteRequest } from '../support/spring-style-service.js';
import { plainAnswer } from '../support/spring-style-service.js';
import { type CliRun, pla, TEST_KEY, tempDir } from './support.js';

const PASSES = ['without a profile', 'after pla config detect'] as const;
type Pass = (typeof PASSES)[number];

/** The ids 1…n as `-q` prints them. */
const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => String(i + from));
const lines = (text: string) => text.split('\n').filter(Boolean);

let dir: { path: string; remove: () => Promise<void> };
let service: SpringStyleService | undefined;
beforeEach(async () => {
  dir = await tempDir('pla-any-stack-');
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await dir.remove();
});

interface Connected {
  run: (args: string[]) => Promise<CliRun>;
  /** The profile `config detect` stored (settings as text), '' without one. */
  stored: string;
}

/**
 * Starts the service and points pla at it: by variables alone (no config is read,
 * so no profile applies), or as environment qa whose profile `config detect` found.
 */
async function connect(options: AnyStackOptions, pass: Pass): Promise<Connected & { svc: SpringStyleService }> {
  const svc = (service = await startAnyStackService({ determinations: manyDeterminations(250), ...options }));
  if (pass === 'without a profile') return { svc, stored: '', run: (args) => pla(args, { server: svc.server, configDir: dir.path }) };
  const config = (args: string[], input?: string) => pla(args, { configDir: dir.path, ...(input !== undefined ? { input } : {}) });
  expect((await config(['config', 'set-url', svc.url, '--env', 'qa'])).exitCode).toBe(0);
  expect((await config(['config', 'set-key', '--env', 'qa'], TEST_KEY)).exitCode).toBe(0);
  const before = svc.records('determinations').length;
  const detect = await config(['config', 'detect', '--env', 'qa']);
  expect(detect.exitCode, detect.stderr).toBe(0);
  // Detection only reads.
  expect(svc.records('determinations')).toHaveLength(before);
  const show = await config(['config', 'show', '-o', 'json']);
  const stored = (JSON.parse(show.stdout) as Array<{ env: string; wire: string }>).find((row) => row.env === 'qa')?.wire ?? '';
  return { svc, stored, run: (args) => config([...args, '--env', 'qa']) };
}

/** The page form `config detect` stores for each listing form, and what else it must find. */
const DETECTED: Record<ListingForm, string[]> = {
  link: ['page.shape=link', 'page.base=1', 'page.maxSize=50'],
  odata: ['page.shape=odata', 'page.follow=links', 'page.maxSize=50'],
  'odata-v2': ['page.shape=odata-v2', 'page.follow=links', 'page.maxSize=50'],
  hal: ['page.shape=hal', 'page.base=0', 'page.maxSize=50'],
  cursor: ['page.shape=cursor', 'page.follow=links'],
  aspnet: ['page.shape=items', 'page.base=0', 'page.maxSize=50'],
  'aspnet-result': ['page.shape=items', 'page.base=0', 'page.maxSize=50'],
  'spring-content': ['page.shape=nested', 'page.base=0', 'page.maxSize=50'],
};

describe.each(PASSES)('every listing form, read to its end, %s', (pass) => {
  it.each(LISTING_FORMS)('%s: --all, --all --size 100 and --max-items print every id once, in order, exit 0', async (form) => {
    const { svc, stored, run } = await connect({ form }, pass);
    if (pass !== 'without a profile') for (const setting of DETECTED[form]) expect(stored.split(' ')).toContain(setting);

    const all = await run(['det', 'list', '--all', '-q']);
    expect(all.exitCode, all.stderr).toBe(0);
    expect(lines(all.stdout)).toEqual(ids(250));
    const sized = await run(['det', 'list', '--all', '--size', '100', '-q']);
    expect(sized.exitCode, sized.stderr).toBe(0);
    expect(lines(sized.stdout)).toEqual(ids(250));
    const some = await run(['det', 'list', '--max-items', '120', '-q']);
    expect(some.exitCode, some.stderr).toBe(0);
    expect(lines(some.stdout)).toEqual(ids(120));
    expect(svc.records('determinations')).toHaveLength(250);
  });
});

describe.each(PASSES)('never silently wrong on another stack, %s', (pass) => {
  it('1. pages cut at 50 with Link rel=next and X-Total-Count 250: --all --size 100 prints all 250', async () => {
    const { svc, stored, run } = await connect({ form: 'link' }, pass);
    const result = await run(['det', 'list', '--all', '--size', '100', '-q']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual(ids(250));
    if (pass !== 'without a profile') expect(stored).toContain('page.maxSize=50');
    // Every page after the first was the one the service linked to.
    const listed = svc.server.requests.filter((r) => r.method === 'GET' && r.path.endsWith('determinations'));
    expect(listed.at(-1)?.query).toMatchObject({ page: '5', size: '50' });
  });

  it('1b. a linked listing whose links stop before the count: exit 11, never complete', async () => {
    const { run } = await connect(
      {
        form: 'link',
        // The service stops linking after its second page, though it counts 250.
        determinations: manyDeterminations(250),
      },
      pass,
    );
    const svc = service as SpringStyleService;
    const original = svc.server.requests.length;
    svc.server.setRoutes([
      {
        path: /determinations$/,
        reply: (req) => {
          const page = Number(req.query.page ?? 1) || 1;
          const items = manyDeterminations(250).slice((page - 1) * 50, page * 50);
          const headers: Record<string, string> = { 'x-total-count': '250' };
          if (page < 2) headers.link = `<${svc.url}${req.path}?page=${page + 1}&size=50>; rel="next"`;
          return { headers, body: items };
        },
      },
    ]);
    const result = await run(['det', 'list', '--all', '-q']);
    expect(result.exitCode).toBe(11);
    expect(result.stderr).toContain('the service counts 250 records and its last page (no link to a next one) ends after 100');
    expect(svc.server.requests.length).toBeGreaterThan(original);
  });

  it('2. a cursor service that ignores page: --page 1 is refused (exit 2), nothing printed; --all follows the cursors', async () => {
    const { stored, run } = await connect({ form: 'cursor' }, pass);
    if (pass !== 'without a profile') expect(stored).toContain('page.follow=links');
    const page = await run(['det', 'list', '--page', '1', '--size', '100']);
    expect(page.exitCode).toBe(2);
    expect(page.stdout).toBe('');
    expect(page.stderr).toContain('the service ignores page numbers');
    const first = await run(['det', 'list', '--size', '100', '-q']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(lines(first.stdout)).toEqual(ids(50));
    const all = await run(['det', 'list', '--all', '--size', '100', '-q']);
    expect(all.exitCode, all.stderr).toBe(0);
    expect(lines(all.stdout)).toEqual(ids(250));
  });

  it('3. {"Id": 7, …}: get 7 -q prints 7', async () => {
    const { run } = await connect({ form: 'aspnet' }, pass);
    const result = await run(['det', 'get', '7', '-q']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('7\n');
    const json = await run(['det', 'get', '7', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ Id: 7, Code: 'D-7' });
  });

  it('4. remove 7 answered 200 {"Status": "Error", "Message": …}: refused (exit 5), the record untouched', async () => {
    const { svc, run } = await connect(
      {
        form: 'aspnet',
        write: (request: WriteRequest) =>
          request.verb === 'remove' ? { body: { Status: 'Error', Message: 'Determination 7 is referenced by 2 lease contracts' } } : plainAnswer(request),
      },
      pass,
    );
    const result = await run(['det', 'remove', '7', '--yes']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('Determination 7 is referenced by 2 lease contracts');
    expect(result.stderr).not.toMatch(/removed 1|kept/);
    expect(svc.record('determinations', 7)).toMatchObject({ status: 'ACTIVE' });
  });

  it('5. get 99999 answered {"IsSuccess": false, "Errors": ["… not found"]}: not found (exit 4), nothing printed', async () => {
    const { run } = await connect({ form: 'aspnet-result' }, pass);
    const missing = await run(['det', 'get', '99999', '-o', 'json']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('Determination 99999 not found');
    const found = await run(['det', 'get', '7', '-q']);
    expect(found.exitCode, found.stderr).toBe(0);
    expect(found.stdout).toBe('7\n');
  });

  it('6. bulk delete 7 8 9 answered with an empty 200 while 9 was kept: deleted 2, failed 1 (exit 9)', async () => {
    const { svc, run } = await connect(
      {
        form: 'hal',
        write: (request: WriteRequest) => {
          if (request.verb !== 'deleteBulk' || !request.items) return plainAnswer(request);
          for (const item of request.items) if (item.id !== 9) item.apply();
          return { status: 200 };
        },
      },
      pass,
    );
    const result = await run(['det', 'delete', '7', '8', '9', '--yes', '--rejects', `${dir.path}/rejects.ndjson`]);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain('deleted 2, failed 1');
    expect(svc.record('determinations', 7)).toBeUndefined();
    expect(svc.record('determinations', 8)).toBeUndefined();
    expect(svc.record('determinations', 9)).toBeDefined();
  });

  it('7. bulk cancel answered true while one task was COMPLETED: cancelled 2, failed 1 (exit 9)', async () => {
    const { svc, run } = await connect(
      {
        form: 'odata',
        write: (request: WriteRequest) => {
          if (request.verb !== 'cancelBulk' || !request.items) return plainAnswer(request);
          for (const item of request.items) {
            try {
              item.apply();
            } catch {
              // The service skips what it cannot cancel, and says `true` all the same.
            }
          }
          return { body: true };
        },
      },
      pass,
    );
    const result = await run(['tasks', 'cancel', '10', '11', '12', '--yes', '--rejects', `${dir.path}/rejects.ndjson`]);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain('cancelled 2, failed 1');
    expect(svc.record('tasks', 10)?.status).toBe('CANCELLED');
    expect(svc.record('tasks', 11)?.status).toBe('CANCELLED');
    expect(svc.record('tasks', 12)?.status).toBe('COMPLETED');
  });

  it('a 207 whose items carry status lines (HTTP/1.1 423 Locked): cancelled 2, failed 1 (exit 9)', async () => {
    const { svc, run } = await connect(
      {
        form: 'odata-v2',
        write: (request: WriteRequest) => {
          if (request.verb !== 'cancelBulk' || !request.items) return plainAnswer(request);
          const results = request.items.map((item) => {
            try {
              item.apply();
              return { id: item.id, status: 'HTTP/1.1 200 OK' };
            } catch {
              return { id: item.id, status: 'HTTP/1.1 423 Locked' };
            }
          });
          return { status: 207, body: results };
        },
      },
      pass,
    );
    const result = await run(['tasks', 'cancel', '10', '11', '12', '--yes', '--rejects', `${dir.path}/rejects.ndjson`]);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain('cancelled 2, failed 1');
    expect(svc.record('tasks', 12)?.status).toBe('COMPLETED');
    expect(svc.record('tasks', 11)?.status).toBe('CANCELLED');
  });

  it('remove of a record in use on a service that says RETIRED: unconfirmed (exit 11) until the profile names RETIRED, then decommissioned', async () => {
    const retired = { id: 300, code: 'OLD', status: 'RETIRED', inUse: true, decommissionedAt: '2026-01-01T00:00:00Z' };
    const { svc, stored, run } = await connect({ form: 'hal', decommissionedAs: 'RETIRED', determinations: [...manyDeterminations(20), retired] }, pass);
    const result = await run(['det', 'remove', '10', '--yes', '-o', 'json']);
    expect(svc.record('determinations', 10)?.status).toBe('RETIRED');
    if (pass === 'without a profile') {
      expect(result.exitCode).toBe(11);
      expect(JSON.parse(result.stdout)).toEqual({ id: 10, outcome: 'unconfirmed' });
      expect(result.stderr).toContain('pla config set-wire decommissioned=VALUE');
    } else {
      // Detect saw record 300, stamped decommissioned, RETIRED.
      expect(stored).toContain('decommissioned=RETIRED');
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ id: 10, outcome: 'decommissioned (in use)' });
    }
    const gone = await run(['det', 'remove', '11', '--yes', '-o', 'json']);
    expect(gone.exitCode, gone.stderr).toBe(0);
    expect(JSON.parse(gone.stdout)).toEqual({ id: 11, outcome: 'deleted' });
    expect(svc.record('determinations', 11)).toBeUndefined();
  });
});
