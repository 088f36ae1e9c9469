/**
 * Never silently wrong on a Spring-style service answering writes in forms the
 * interface leaves "not shown" (issue 16): the built CLI against
 * test/support/spring-style-service.ts. A write the service did not confirm never
 * exits 0, a failure is never counted as a success, and no answer makes pla act
 * on, or report, another record. Each test asserts what pla printed, its exit
 * code and what the service holds afterwards.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answering, plainAnswer, type SpringStyleOptions, type SpringStyleService, startSpringStyleService } from '../support/spring-style-service.js';
import { pla, tempDir } from './support.js';

let dir: { path: string; remove: () => Promise<void> };
let service: SpringStyleService | undefined;

beforeEach(async () => {
  dir = await tempDir('pla-unconfirmed-');
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await dir.remove();
});

async function serve(options: SpringStyleOptions): Promise<SpringStyleService> {
  await service?.close();
  service = await startSpringStyleService(options);
  return service;
}

function run(args: string[], input?: string) {
  return pla(args, { server: (service as SpringStyleService).server, configDir: dir.path, ...(input !== undefined ? { input } : {}) });
}

async function ndjson(path: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** 200 answers a void write may come with that say it failed, or say nothing pla can read as done. */
const NOT_DONE_BODIES: Array<[string, unknown]> = [
  ['{"statusCode": 500}', { statusCode: 500, message: 'could not delete' }],
  ['{"status": "INTERNAL_SERVER_ERROR"}', { status: 'INTERNAL_SERVER_ERROR', message: 'database down' }],
  ['{"status": "BAD_REQUEST"}', { status: 'BAD_REQUEST', message: 'record is referenced' }],
  ['{"success": "False"}', { success: 'False', message: 'not allowed' }],
  ['an errors object', { errors: { id: 'record is referenced' } }],
  ['{"deleted": 0}', { deleted: 0 }],
  ['a bare 0', 0],
  ['an id list naming other ids', [99]],
  ['{"result": "FAILURE"}', { result: 'FAILURE' }],
  ['{"success": true, "data": {"deleted": false}}', { success: true, data: { deleted: false } }],
  ['{"status": "ACCEPTED"}', { status: 'ACCEPTED' }],
  ['{"processed": 3}', { processed: 3 }],
];

describe('a void write answered 200 with anything but a confirmation is never done', () => {
  it.each(NOT_DONE_BODIES)('a delete answered %s and not carried out: not deleted, exit non-zero, the record kept', async (_, body) => {
    const svc = await serve({ write: answering('delete', { body }, false) });
    const result = await run(['det', 'delete', '2', '--yes']);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).not.toMatch(/^deleted determination 2/m);
    expect(svc.record('determinations', 2)).toBeDefined();
  });

  it.each(NOT_DONE_BODIES)('a bulk delete answered %s and not carried out: none counted deleted, exit 9 (7 for a 5xx)', async (name, body) => {
    const svc = await serve({ write: answering('deleteBulk', { body }, false) });
    const rejects = join(dir.path, 'rejects.ndjson');
    const result = await run(['det', 'delete', '2', '3', '--yes', '--rejects', rejects]);
    // A 5xx stated inside the 200 stops the run as a 5xx does (a delete is safe to run again); anything else is read back.
    expect(result.exitCode).toBe(/500|INTERNAL/.test(name) ? 7 : 9);
    expect(result.stderr).toMatch(/deleted 0\b/);
    expect(svc.records('determinations').map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });

  it('a delete answered {"status": "ACCEPTED"} and carried out is read back: deleted, saying so', async () => {
    const svc = await serve({ write: answering('delete', { body: { status: 'ACCEPTED' } }, true) });
    const result = await run(['det', 'delete', '2', '--yes']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/deleted determination 2 \(.*read back: not found\)/);
    expect(svc.record('determinations', 2)).toBeUndefined();
  });

  it('a cancel answered 202 with no body is read back: the task still PENDING is not cancelled (exit 5)', async () => {
    const svc = await serve({ write: answering('cancel', { status: 202 }, false) });
    const result = await run(['tasks', 'cancel', '10', '--yes']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('read back: the task is PENDING');
    expect(svc.record('tasks', 10)?.status).toBe('PENDING');
  });

  it('a cancel answered with an HTML page with status 200 and not carried out is not cancelled', async () => {
    const svc = await serve({
      write: answering('cancel', { headers: { 'content-type': 'text/html' }, body: '<html><body>Request received</body></html>' }, false),
    });
    const result = await run(['tasks', 'cancel', '11', '--yes']);
    expect(result.exitCode).toBe(5);
    expect(svc.record('tasks', 11)?.status).toBe('RUNNING');
  });

  it('a cancel answered with the task record without its status reads the status back', async () => {
    const svc = await serve({ write: answering('cancel', (request) => ({ body: { data: { id: request.id } } }), false) });
    const result = await run(['tasks', 'cancel', '10', '--yes']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('read back: the task is PENDING');
    expect(svc.record('tasks', 10)?.status).toBe('PENDING');
  });
});

describe('successes spelled with zeros', () => {
  it('per-item results with "error": 0 and an envelope with "code": "0000" are successes', async () => {
    const svc = await serve({
      write: (request) => {
        if (request.verb !== 'deleteBulk' || !request.items) return plainAnswer(request);
        for (const item of request.items) item.apply();
        return { body: { code: '0000', msg: 'OK', data: request.items.map((item) => ({ id: item.id, deleted: true, error: 0 })) } };
      },
    });
    const result = await run(['det', 'delete', '2', '3', '--yes']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/deleted 2, failed 0/);
    expect(svc.records('determinations').map((r) => r.id)).toEqual([1, 4]);
  });
});

describe('bulk answers are matched by id', () => {
  it('an upsert answered in another order is matched by id: each record gets its own answer', async () => {
    const svc = await serve({
      write: (request) => {
        if (request.verb !== 'upsertBulk') return plainAnswer(request);
        const made = request.apply() as unknown[];
        return { body: { data: [...made].reverse() } };
      },
    });
    const input = ['{"id":2,"code":"UPD-2"}', '{"code":"NEW-1"}'].join('\n');
    const result = await run(['det', 'upsert', '--file', '-', '--format', 'ndjson', '-o', 'json'], input);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/upserted 2 \(created 1, updated 1\)/);
    const printed = JSON.parse(result.stdout) as Array<{ id: number; code: string }>;
    expect(printed.map((r) => [r.id, r.code])).toEqual([
      [2, 'UPD-2'],
      [100, 'NEW-1'],
    ]);
    expect(svc.record('determinations', 2)?.code).toBe('UPD-2');
  });

  it('a per-item result with "status": "ERROR" inside a success envelope fails that item only', async () => {
    const svc = await serve({
      write: (request) => {
        if (request.verb !== 'cancelBulk' || !request.items) return plainAnswer(request);
        request.items[0]?.apply();
        return {
          body: {
            success: true,
            data: [
              { id: 11, status: 'ERROR', message: 'worker busy' },
              { id: 10, status: 'SUCCESS' },
            ],
          },
        };
      },
    });
    const rejects = join(dir.path, 'rejects.ndjson');
    const result = await run(['tasks', 'cancel', '10', '11', '--yes', '--rejects', rejects]);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/cancelled 1, failed 1/);
    expect((await ndjson(rejects)).map((r) => r.id)).toEqual([11]);
    expect(svc.record('tasks', 10)?.status).toBe('CANCELLED');
    expect(svc.record('tasks', 11)?.status).toBe('RUNNING');
  });

  it('an empty 200 to a bulk upsert confirms nothing: the updates are read back, the creates unknown', async () => {
    const svc = await serve({ write: answering('upsertBulk', { body: '' }, false) });
    const unknownFile = join(dir.path, 'unknown.ndjson');
    const input = ['{"id":2,"code":"UPD-2"}', '{"code":"NEW-1"}'].join('\n');
    const result = await run(['det', 'upsert', '--file', '-', '--format', 'ndjson', '--unknown-outcome', unknownFile], input);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/upserted 0/);
    expect(svc.record('determinations', 2)?.code).toBe('ATD-RET');
  });
});

describe('creates', () => {
  it('a create naming an id is refused before sending (exit 2)', async () => {
    const svc = await serve({});
    const result = await run(['det', 'create', '--data', '{"id":3,"code":"X"}']);
    expect(result.exitCode).toBe(2);
    expect(svc.record('determinations', 3)?.code).toBe('ATD-TRF');
    expect(svc.server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('a create answered with an existing record is of unknown outcome, never printed as created', async () => {
    const svc = await serve({ write: answering('create', { body: { data: { id: 2, code: 'ATD-RET', status: 'ACTIVE' } } }, false) });
    const result = await run(['det', 'create', '--data', '{"code":"ATD-NEW"}', '-q']);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(svc.records('determinations')).toHaveLength(4);
  });

  it('a create answered with other fields than sent is of unknown outcome', async () => {
    await serve({ write: answering('create', { body: { data: { id: 555, code: 'SOMETHING-ELSE' } } }, false) });
    const result = await run(['det', 'create', '--data', '{"code":"ATD-NEW"}', '-q']);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe('');
  });
});

describe('bulk creates and partial refusals', () => {
  it('a bulk create naming an id: that row is a reject, the others are created', async () => {
    const svc = await serve({});
    const rejects = join(dir.path, 'rejects.ndjson');
    const input = ['{"code":"NEW-1"}', '{"id":3,"code":"OVERWRITE"}'].join('\n');
    const result = await run(['det', 'create', '--file', '-', '--format', 'ndjson', '--rejects', rejects], input);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/created 1, failed 1/);
    const [rejected] = await ndjson(rejects);
    expect(rejected).toMatchObject({ id: 3, _line: 2 });
    expect(rejected?._error).toContain('a create takes no id');
    expect(svc.record('determinations', 3)?.code).toBe('ATD-TRF');
    expect(svc.records('determinations').map((r) => r.code)).toContain('NEW-1');
  });

  it('a refusal naming the items it refused fails only those; the others, carried out, are read back and never sent again', async () => {
    const svc = await serve({
      write: (request) => {
        if (request.verb !== 'deleteBulk' || !request.items) return plainAnswer(request);
        for (const item of request.items) if (item.id !== 3) item.apply();
        return { status: 400, body: { message: '1 of 3 not deleted', errors: [{ id: 3, message: 'referenced by a lease contract' }] } };
      },
    });
    const rejects = join(dir.path, 'rejects.ndjson');
    const result = await run(['det', 'delete', '2', '3', '4', '--yes', '--rejects', rejects]);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/deleted 2, failed 1/);
    expect((await ndjson(rejects)).map((r) => [r.id, r._error])).toEqual([[3, 'referenced by a lease contract']]);
    expect(svc.records('determinations').map((r) => r.id)).toEqual([1, 3]);
    expect(svc.server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });
});

describe('retries', () => {
  it('a delete answered 503 after it was carried out, then 404 on the retry: probably deleted, exit 7, unknown outcome', async () => {
    let attempts = 0;
    const svc = await serve({
      write: (request) => {
        if (request.verb !== 'delete') return plainAnswer(request);
        attempts += 1;
        if (attempts === 1) {
          request.apply();
          return { status: 503, body: { message: 'gateway timeout' } };
        }
        return plainAnswer(request);
      },
    });
    const unknownFile = join(dir.path, 'unknown.ndjson');
    const result = await run(['det', 'delete', '2', '--yes', '--unknown-outcome', unknownFile]);
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toContain('probably deleted by an earlier attempt');
    expect(result.stderr).not.toMatch(/^deleted/m);
    expect(attempts).toBe(2);
    expect((await ndjson(unknownFile)).map((r) => r._value ?? r.id ?? r)).toHaveLength(1);
    expect(svc.record('determinations', 2)).toBeUndefined();
  });

  it('a Retry-After over 60 s fails at once (exit 6), saying how long the service asked to wait', async () => {
    const svc = await serve({ write: answering('delete', { status: 429, headers: { 'retry-after': '120' }, body: { message: 'slow down' } }, false) });
    const result = await run(['det', 'delete', '2', '--yes']);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('asked to wait 120 s');
    expect(svc.server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect(svc.record('determinations', 2)).toBeDefined();
  });
});

describe('filters the service may not apply', () => {
  it('tasks list --status against a service that ignores the filter prints nothing and fails, so no cancel gets every task', async () => {
    const svc = await serve({ ignoresFilters: true });
    const listed = await run(['tasks', 'list', '--status', 'PENDING', '-q']);
    expect(listed.exitCode).not.toBe(0);
    expect(listed.stdout).toBe('');
    expect(listed.stderr).toContain('its filter excludes');
    const cancelled = await run(['tasks', 'cancel', '--ids-file', '-', '--yes'], listed.stdout);
    expect(cancelled.exitCode).not.toBe(0);
    expect(svc.records('tasks').map((t) => t.status)).toEqual(['PENDING', 'RUNNING', 'COMPLETED']);
  });

  it('tasks search --filter is checked on the records answered; a service that applies it is listed as before', async () => {
    await serve({ ignoresFilters: true });
    const ignored = await run(['tasks', 'search', '--filter', '{"status":["RUNNING"]}', '-q']);
    expect(ignored.exitCode).not.toBe(0);
    expect(ignored.stdout).toBe('');

    await serve({});
    const applied = await run(['tasks', 'search', '--filter', '{"status":["RUNNING"]}', '-q']);
    expect(applied.exitCode).toBe(0);
    expect(applied.stdout.trim()).toBe('11');
  });
});

describe('creates answered with an id given before', () => {
  it('two records of one run answered with the same id: the second is of unknown outcome, not a second create', async () => {
    const svc = await serve({
      write: (request) => {
        if (request.verb !== 'createBulk' || !Array.isArray(request.body)) return plainAnswer(request);
        // A service that hands out one id twice: each record "created" as 100, the second overwriting the first.
        const made = (request.body as Array<Record<string, unknown>>).map((record) => ({ ...record, id: 100 }));
        return { body: { data: made } };
      },
    });
    const unknownFile = join(dir.path, 'unknown.ndjson');
    const input = ['{"code":"A"}', '{"code":"B"}'].join('\n');
    const result = await run(['det', 'create', '--file', '-', '--format', 'ndjson', '--batch-size', '1', '--unknown-outcome', unknownFile, '-q'], input);
    expect(result.exitCode).toBe(9);
    expect(result.stdout.trim()).toBe('100');
    expect(result.stderr).toContain('the outcome of 1 record is unknown');
    const [kept] = await ndjson(unknownFile);
    expect(kept).toMatchObject({ code: 'B' });
    expect(kept?._error).toContain('which it answered for another record of this run');
    expect(svc.records('determinations')).toHaveLength(4);
  });

  it('an image upload prints the id its location names, exact past 2^53', async () => {
    const svc = await serve({});
    svc.server.setRoutes([{ method: 'POST', path: '/api/images', reply: { status: 201, headers: { location: '/api/images/9007199254740993' } } }]);
    const file = join(dir.path, 'logo.png');
    await writeFile(file, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const result = await run(['images', 'upload', file, '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('"id": 9007199254740993');
  });
});

describe('the notification side, which has no read to check by', () => {
  it('mark read of several and clear answered {"status": "ACCEPTED"} are of unknown outcome, never done', async () => {
    const svc = await serve({});
    svc.server.setRoutes([
      { method: 'POST', path: /^\/api\/notifications\/\d+\/read$/, reply: { body: { status: 'ACCEPTED' } } },
      { method: 'DELETE', path: '/api/notifications/ana/all', reply: { body: { status: 'ACCEPTED' } } },
    ]);
    const read = await run(['notifications', 'read', '101', '102']);
    expect(read.exitCode).not.toBe(0);
    expect(read.stderr).toContain('outcome unknown');
    expect(read.stderr).not.toMatch(/marked read 2/);
    const cleared = await run(['notifications', 'clear', 'ana', '--yes']);
    expect(cleared.exitCode).not.toBe(0);
    expect(cleared.stderr).toContain('outcome unknown');
    expect(svc.server.requests.filter((r) => r.method !== 'GET')).toHaveLength(3);
  });
});

describe('an answer naming another record or only some ids confirms only what it names', () => {
  it('a cancel of 10 answered with task 11 CANCELLED is read back: not cancelled, exit 5, 10 still PENDING', async () => {
    const svc = await serve({ write: answering('cancel', { body: { success: true, data: { id: 11, status: 'CANCELLED' } } }, false) });
    const result = await run(['tasks', 'cancel', '10', '--yes']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).not.toMatch(/^cancelled task 10/m);
    expect(result.stderr).toContain('read back: the task is PENDING');
    expect(svc.record('tasks', 10)?.status).toBe('PENDING');
    expect(svc.record('tasks', 11)?.status).toBe('RUNNING');
  });

  it('a cancel past 2^53 answered with the id one below is not confirmed: exit non-zero, not cancelled', async () => {
    await serve({ write: answering('cancel', { body: '{"success":true,"data":{"id":9007199254740992,"status":"CANCELLED"}}' }, false) });
    const result = await run(['tasks', 'cancel', '9007199254740993', '--yes']);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).not.toMatch(/^cancelled task/m);
  });

  it('a cancel answered with its own task CANCELLED is still confirmed (exit 0)', async () => {
    const svc = await serve({ write: answering('cancel', (request) => ({ body: { success: true, data: { id: request.id, status: 'CANCELLED' } } }), true) });
    const result = await run(['tasks', 'cancel', '10', '--yes']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^cancelled task 10/m);
    expect(svc.record('tasks', 10)?.status).toBe('CANCELLED');
  });

  /** A bulk delete of 2, 3, 4 that deletes 2 and 3 only and answers `message`. */
  function deletingTwoOfThree(message: string): SpringStyleOptions['write'] {
    return (request) => {
      if (request.verb !== 'deleteBulk' || !request.items) return plainAnswer(request);
      for (const item of request.items) if (item.id !== 4) item.apply();
      return { body: { success: true, message } };
    };
  }

  it.each([['Deleted ids: 2, 3'], ['2 records deleted']])(
    'a bulk delete of 2, 3, 4 answered "%s" with 4 kept: 4 read back and failed, exit 9, in the rejects',
    async (message) => {
      const svc = await serve({ write: deletingTwoOfThree(message) });
      const rejects = join(dir.path, 'rejects.ndjson');
      const result = await run(['det', 'delete', '2', '3', '4', '--yes', '--rejects', rejects]);
      expect(result.exitCode).toBe(9);
      expect(result.stderr).toMatch(/deleted 2, failed 1/);
      expect((await ndjson(rejects)).map((row) => row.id)).toEqual([4]);
      expect(svc.records('determinations').map((r) => r.id)).toEqual([1, 4]);
    },
  );

  it('a bulk delete answered "Deleted ids: 2, 3" that deleted all three: 4 read back as not found, exit 0', async () => {
    const svc = await serve({ write: answering('deleteBulk', { body: { success: true, message: 'Deleted ids: 2, 3' } }, true) });
    const result = await run(['det', 'delete', '2', '3', '4', '--yes']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/deleted 3, failed 0/);
    expect(svc.records('determinations').map((r) => r.id)).toEqual([1]);
  });
});
