/**
 * `pla config detect`, then the everyday commands, read by the profile it stored:
 * the built CLI against the local server answering in six forms (`--wire`):
 * envelope keys data, result, payload and none; refusals inside a 200; soft 404s;
 * bulk answers item by item; pages from 1; pages cut to a maximum. Each step
 * asserts what pla printed, its exit code and what the server holds afterwards.
 * Then a stored profile that does not fit the service: its envelope key missing is
 * an error for a read, `bulkItems=per-item` makes a whole-request answer confirm
 * nothing, doctor names the setting, and a URL and key from variables read no profile.
 * Last, a Spring-style service (test/support/spring-style-service.ts) for what the
 * local server does not answer: a refusal with fields of its own, a whole-request
 * success under `bulkItems=per-item`, a create answered 201 with only a Location.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../support/local-server.js';
import { plainAnswer, type SpringStyleOptions, type SpringStyleService, startSpringStyleService } from '../support/spring-style-service.js';
import { pla, TEST_KEY, tempDir } from './support.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const TASKS = '/api/v1/batch/mass-inter-company-transfer/tasks';

type Held = Record<string, unknown>;

/** What the server holds under `path` (undefined when it has nothing there), its answer unwrapped by the form's key. */
async function held(server: LocalServer, path: string, key: string | undefined): Promise<Held | undefined> {
  const answer = await server.http('GET', path);
  if (answer.status === 404) return undefined;
  expect(answer.status, answer.text).toBe(200);
  const data = key === undefined ? answer.body : (answer.body as Record<string, unknown>)[key];
  return (data ?? undefined) as Held | undefined;
}

interface Form {
  title: string;
  wire: string;
  /** The envelope key detect finds (undefined: none). */
  key: string | undefined;
  /** The settings `pla config show` then lists for it (some of them). */
  shows: string[];
}

const FORMS: Form[] = [
  {
    title: '{code, msg, data}, refusals as 200 {"code": 409}, soft 404s',
    wire: 'code-msg',
    key: 'data',
    // A soft 404 shows no refusal: the form of refusals is left to the general rules (which read it).
    shows: ['envelope.key=data', 'envelope.code=true', 'softNotFound=true'],
  },
  {
    title: '{success, result}, refusals as 200 {"success": false}',
    wire: 'spring-result',
    key: 'result',
    shows: ['envelope.key=result', 'failure=success-false'],
  },
  {
    title: '{payload}, bulk answered item by item',
    wire: 'payload-per-item',
    key: 'payload',
    shows: ['envelope.key=payload', 'failure=problem', 'softNotFound=false'],
  },
  {
    title: 'no envelope, pages cut at 2 with the size asked for echoed',
    wire: 'bare,page.maxSize=2,page.sizeEcho=requested',
    key: undefined,
    shows: ['envelope.key=none', 'page.maxSize=2', 'page.sizeEcho=requested'],
  },
  {
    title: '200 {"success": false}, soft 404s, per-item bulk, pages from 1',
    wire: 'soft-fail,page.base=1',
    key: 'data',
    shows: ['envelope.key=data', 'softNotFound=true', 'page.base=1'],
  },
  {
    title: '{success, result}, refusals as 200 {"status": "ERROR"}, flat pages from 1 cut at 4',
    wire: 'spring-result,failure=status-error,page.shape=flat,page.base=1,page.maxSize=4',
    key: 'result',
    shows: ['envelope.key=result', 'failure=status-error', 'page.shape=flat', 'page.base=1', 'page.maxSize=4', 'page.sizeEcho=capped'],
  },
];

describe.each(FORMS)('detect, then every command, against $wire: $title', ({ wire, key, shows }) => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({ args: ['--wire', wire] });
  });
  afterAll(() => server?.stop());

  // Fourteen runs of the CLI in a row: on a loaded machine that may pass the default minute.
  it('reads every answer right and changes exactly what it says', { timeout: 300_000 }, async () => {
    const run = (args: string[]) => server.pla(args);
    const detect = await run(['config', 'detect']);
    expect(detect.exitCode, detect.stderr).toBe(0);
    expect(detect.stderr).toContain('saved the wire profile of local');
    const show = await run(['config', 'show', '-o', 'json']);
    const stored = (JSON.parse(show.stdout) as Array<{ env: string; wire: string }>).find((row) => row.env === 'local')?.wire ?? '';
    for (const setting of shows) expect(stored.split(' ')).toContain(setting);
    // No seeded record is decommissioned, so detect cannot see the state: the user names it (remove is confirmed by it).
    expect(stored).not.toContain('decommissioned=');
    expect((await run(['config', 'set-wire', 'decommissioned=DECOMMISSIONED'])).exitCode).toBe(0);

    const get = await run(['det', 'get', '1', '-o', 'json']);
    expect(get.exitCode, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout)).toMatchObject({ id: 1, code: 'ATD-ACQ' });
    const missing = await run(['det', 'get', '999999', '-q']);
    expect(missing.exitCode, missing.stderr).toBe(4);
    expect(missing.stdout).toBe('');

    const all = await run(['det', 'list', '--all', '--size', '5', '-q']);
    expect(all.exitCode, all.stderr).toBe(0);
    expect(all.stdout.split('\n').filter(Boolean)).toEqual(['1', '2', '3', '4', '5', '6']);

    const create = await run(['det', 'create', '-q', '--data', '{"code":"WP-1","name":"made","transactionType":"ACQUISITION","companyCode":"1000"}']);
    expect(create.exitCode, create.stderr).toBe(0);
    const id = create.stdout.trim();
    expect(id).toMatch(/^\d+$/);
    expect(await held(server, `${DET}/${id}`, key)).toMatchObject({ code: 'WP-1', name: 'made' });

    const update = await run(['det', 'update', id, '--data', '{"name":"renamed"}', '-o', 'json']);
    expect(update.exitCode, update.stderr).toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({ id: Number(id), name: 'renamed' });
    expect(await held(server, `${DET}/${id}`, key)).toMatchObject({ name: 'renamed' });

    const del = await run(['det', 'delete', id, '--yes']);
    expect(del.exitCode, del.stderr).toBe(0);
    expect(del.stderr).toContain(`deleted determination ${id}`);
    expect(await held(server, `${DET}/${id}`, key)).toBeUndefined();
    // Refused, in whatever form the service says it: never "deleted" again.
    const again = await run(['det', 'delete', id, '--yes']);
    expect(again.exitCode, again.stderr).toBe(4);
    expect(again.stderr).not.toContain('deleted determination');

    const remove = await run(['det', 'remove', '2', '3', '--yes', '-o', 'json']);
    expect(remove.exitCode, remove.stderr).toBe(0);
    expect(JSON.parse(remove.stdout)).toEqual([
      { id: 2, outcome: 'deleted' },
      { id: 3, outcome: 'decommissioned (in use)' },
    ]);
    expect(await held(server, `${DET}/2`, key)).toBeUndefined();
    expect(await held(server, `${DET}/3`, key)).toMatchObject({ status: 'DECOMMISSIONED' });

    const cancel = await run(['tasks', 'cancel', '1', '--yes']);
    expect(cancel.exitCode, cancel.stderr).toBe(0);
    expect(await held(server, `${TASKS}/1`, key)).toMatchObject({ status: 'CANCELLED' });
    // A finished task cannot be cancelled: refused (exit 5), in a 200 or not, and left as it was.
    const refused = await run(['tasks', 'cancel', '4', '--yes']);
    expect(refused.exitCode, refused.stderr).toBe(5);
    expect(await held(server, `${TASKS}/4`, key)).toMatchObject({ status: 'COMPLETED' });

    const notify = await run(['notif', 'create', '--data', '{"forUserId":"ana","title":"Lease renewed"}', '-q']);
    expect(notify.exitCode, notify.stderr).toBe(0);
    const count = await run(['notif', 'count', 'ana', '-o', 'json']);
    expect(count.exitCode, count.stderr).toBe(0);
    expect(JSON.parse(count.stdout)).toEqual({ count: 1 });
  });
});

describe('a stored profile the service does not answer by', () => {
  let server: LocalServer;
  beforeAll(async () => {
    // The local server's own form: {success, message, data}, bulk all or nothing.
    server = await startLocalServer();
  });
  afterAll(() => server?.stop());

  it('an envelope key the answers lack: a read is exit 11 naming what came, doctor names the setting; flags and variables read no profile', async () => {
    expect((await server.pla(['config', 'set-wire', '--replace', 'envelope.key=result'])).exitCode).toBe(0);
    const get = await server.pla(['det', 'get', '1', '-q']);
    expect(get.exitCode).toBe(11);
    expect(get.stdout).toBe('');
    expect(get.stderr).toContain('an object with success, message, data without "result", where the wire profile says the data is');

    const doctor = await server.pla(['doctor', '-o', 'table']);
    expect(doctor.exitCode).toBe(2);
    expect(doctor.stdout).toMatch(/✗ wire profile .*envelope\.key: result stored, data now/);

    // A base URL and key given only by variables: no environment, no profile, pla's rules.
    const plain = await server.pla(['det', 'get', '1', '-q'], { env: { PLA_BASE_URL: server.url, PLA_API_KEY: server.adminKey } });
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stdout.trim()).toBe('1');
    expect((await server.pla(['config', 'set-wire', '--unset'])).exitCode).toBe(0);
  });
});

describe('a Spring-style service with a stored profile', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let service: SpringStyleService | undefined;
  beforeEach(async () => {
    dir = await tempDir('pla-wire-reading-');
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await dir.remove();
  });

  /** Starts the service and points environment qa at it with `settings` as its profile. */
  async function serve(options: SpringStyleOptions, settings: string[]): Promise<SpringStyleService> {
    service = await startSpringStyleService(options);
    expect((await run(['config', 'set-url', service.url, '--env', 'qa'])).exitCode).toBe(0);
    expect((await pla(['config', 'set-key', '--env', 'qa'], { configDir: dir.path, input: TEST_KEY })).exitCode).toBe(0);
    if (settings.length > 0) expect((await run(['config', 'set-wire', ...settings, '--env', 'qa'])).exitCode).toBe(0);
    return service;
  }
  const run = (args: string[]) => pla(args, { configDir: dir.path });

  it('failure=success-false: a refusal with fields of its own beside the flag is a refusal (exit 5), not "deleted"', async () => {
    const svc = await serve(
      {
        write: (request) =>
          request.verb === 'delete'
            ? {
                body: { success: false, message: 'Cannot delete: referenced by 3 lease contracts', timestamp: '2026-01-01T00:00:00Z', service: 'asset-ledger' },
              }
            : plainAnswer(request),
      },
      ['envelope.key=data', 'failure=success-false'],
    );
    const result = await run(['det', 'delete', '2', '--yes', '--env', 'qa']);
    expect(result.exitCode, result.stderr).toBe(5);
    expect(result.stderr).toContain('Cannot delete: referenced by 3 lease contracts');
    expect(result.stderr).not.toContain('deleted determination');
    expect(svc.record('determinations', 2)).toBeDefined();
  });

  it('bulkItems=per-item: a whole-request "success" confirms nothing: deletes read back (one still there: exit 9), creates of unknown outcome', async () => {
    const svc = await serve(
      {
        write: (request) => {
          if (!request.items) return plainAnswer(request);
          // Says success for the request, carries out only what it likes.
          if (request.verb === 'deleteBulk') request.items[0]?.apply();
          else for (const item of request.items) item.apply();
          return { body: { success: true, message: 'done' } };
        },
      },
      ['bulkItems=per-item'],
    );
    const del = await run(['det', 'delete', '2', '3', '--yes', '--env', 'qa', '--rejects', join(dir.path, 'rejects.ndjson')]);
    expect(del.exitCode, del.stderr).toBe(9);
    expect(del.stderr).toContain('deleted 1, failed 1');
    expect(svc.record('determinations', 2)).toBeUndefined();
    expect(svc.record('determinations', 3)).toBeDefined();

    const unknown = join(dir.path, 'unknown.ndjson');
    const records = '[{"code":"PI-1"},{"code":"PI-2"}]';
    // An upsert of records without ids creates them (this service has no bulk create).
    const create = await run(['det', 'upsert', '--data', records, '--env', 'qa', '--unknown-outcome', unknown]);
    expect(create.exitCode, create.stderr).toBe(9);
    expect(create.stderr).toContain(unknown);
    expect((await readFile(unknown, 'utf8')).split('\n').filter(Boolean)).toHaveLength(2);
    // The service did make them: pla could not tell, and said so rather than "created 2".
    expect(svc.records('determinations').map((record) => record.code)).toEqual(expect.arrayContaining(['PI-1', 'PI-2']));
  });

  it('a create answered 201 with a Location and no body: the record read back from there, its id printed (-q)', async () => {
    const svc = await serve(
      {
        write: (request) => {
          if (request.verb !== 'create') return plainAnswer(request);
          const record = request.apply() as { id: number };
          return { status: 201, headers: { location: `/api/v1/asset-transaction-type-determinations/${record.id}` } };
        },
      },
      [],
    );
    const quiet = await run(['det', 'create', '-q', '--data', '{"code":"LOC-1"}', '--env', 'qa']);
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe('100\n');
    const json = await run(['det', 'create', '-o', 'json', '--data', '{"code":"LOC-2"}', '--env', 'qa']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 101, code: 'LOC-2' });
    expect(svc.record('determinations', 100)).toMatchObject({ code: 'LOC-1' });
    const lines = (await readdir(join(dir.path, 'runs'))).filter((name) => name.endsWith('.ndjson') && !name.startsWith('unknown'));
    expect(lines).toHaveLength(2);
  });

  it('a Location on another host or outside the base path is not read: unknown outcome (exit 11), in the file', async () => {
    const svc = await serve(
      {
        write: (request) => {
          if (request.verb !== 'create') return plainAnswer(request);
          request.apply();
          return { status: 201, headers: { location: 'http://elsewhere.invalid/api/v1/asset-transaction-type-determinations/100' } };
        },
      },
      [],
    );
    const unknown = join(dir.path, 'unknown.ndjson');
    const result = await run(['det', 'create', '-q', '--data', '{"code":"LOC-3"}', '--env', 'qa', '--unknown-outcome', unknown]);
    expect(result.exitCode).toBe(11);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('not read: it is not under the base URL');
    expect(await readFile(unknown, 'utf8')).toContain('LOC-3');
    expect(svc.record('determinations', 100)).toMatchObject({ code: 'LOC-3' });
  });
});
