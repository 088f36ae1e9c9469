/**
 * Exit 0 only for what the service confirmed: the built CLI against a small
 * Spring-style service (test/support/spring-style-service.ts) answering in forms
 * our local server does not produce: a gateway's sign-in page answered 200,
 * `{"code": 500, "msg": …}`, `{"success": "false"}`, `{"status": "ERROR"}`, soft
 * 404s, bulk answers item by item or leaving items out. Each test asserts what pla
 * printed, its exit code, the rejects / unknown-outcome / receipt files, and what
 * the service holds afterwards.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeReply } from '../support/fake-server.js';
import {
  answering,
  type BulkItem,
  plainAnswer,
  Refusal,
  SIGN_IN_PAGE,
  type SpringStyleOptions,
  type SpringStyleService,
  startSpringStyleService,
  type WriteRequest,
} from '../support/spring-style-service.js';
import { pla, tempDir } from './support.js';

let dir: { path: string; remove: () => Promise<void> };
let service: SpringStyleService | undefined;

beforeEach(async () => {
  dir = await tempDir('pla-confirm-');
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await dir.remove();
});

async function serve(options: SpringStyleOptions): Promise<SpringStyleService> {
  service = await startSpringStyleService(options);
  return service;
}

function run(args: string[]) {
  return pla(args, { server: (service as SpringStyleService).server, configDir: dir.path });
}

/** Lines of an ndjson file as values. */
async function ndjson(path: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The lines of the one receipt the run left. */
async function receipt(): Promise<Array<Record<string, unknown>>> {
  const runs = join(dir.path, 'runs');
  const files = (await readdir(runs)).filter((name) => name.endsWith('.ndjson'));
  expect(files).toHaveLength(1);
  return ndjson(join(runs, files[0] as string));
}

describe('failures inside a 200 are failures', () => {
  it('{"success": false, "message"} without a data key: refused, exit 5, the record kept', async () => {
    const svc = await serve({ write: answering('delete', { body: { success: false, message: 'Cannot delete: referenced by 3 lease contracts' } }, false) });
    const result = await run(['det', 'delete', '2', '--yes']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('Cannot delete: referenced by 3 lease contracts');
    expect(result.stderr).not.toMatch(/^deleted/m);
    expect(svc.record('determinations', 2)).toBeDefined();
    const [, end] = await receipt();
    expect(end).toMatchObject({ type: 'end', exitCode: 5 });
  });

  it('{"success": "false"} and {"status": "ERROR", "errors": […]}: refused, nothing printed as a record', async () => {
    const svc = await serve({
      write: (request) =>
        request.verb === 'update'
          ? { body: { status: 'ERROR', errors: [{ field: 'code', message: 'record is locked' }] } }
          : request.verb === 'delete'
            ? { body: { success: 'false', message: 'not allowed' } }
            : plainAnswer(request),
    });
    const update = await run(['det', 'update', '3', '--data', '{"code":"NEW"}', '-o', 'json']);
    expect(update.exitCode).toBe(5);
    expect(update.stdout).toBe('');
    expect(update.stderr).toContain('record is locked');
    expect(svc.record('determinations', 3)?.code).toBe('ATD-TRF');

    const removed = await run(['det', 'delete', '3', '--yes']);
    expect(removed.exitCode).toBe(5);
    expect(removed.stderr).toContain('not allowed');
    expect(svc.record('determinations', 3)).toBeDefined();
  });

  it('a single write answered with a per-item result that says no is refused: nothing printed, nothing changed', async () => {
    const svc = await serve({
      write: (request) =>
        request.verb === 'cancel'
          ? { body: { id: request.id, cancelled: false, reason: 'already COMPLETED' } }
          : request.verb === 'update'
            ? { body: { id: request.id, success: false, message: 'record is locked by another user' } }
            : plainAnswer(request),
    });
    const cancel = await run(['tasks', 'cancel', '10', '--yes']);
    expect(cancel.exitCode).toBe(5);
    expect(cancel.stderr).toContain('not cancelled: the service answered 200: already COMPLETED');
    expect(svc.record('tasks', 10)?.status).toBe('PENDING');

    const update = await run(['det', 'update', '3', '--data', '{"code":"NEW"}', '-o', 'json']);
    expect(update.exitCode).toBe(5);
    expect(update.stdout).toBe('');
    expect(update.stderr).toContain('record is locked by another user');
    expect(svc.record('determinations', 3)?.code).toBe('ATD-TRF');
  });

  it('{"code": 500, "msg"} is a server error (exit 7), not a delete', async () => {
    const svc = await serve({ write: answering('delete', { body: { code: 500, msg: 'database connection lost' } }, false) });
    const result = await run(['det', 'delete', '4', '--yes']);
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toContain('database connection lost');
    expect(svc.record('determinations', 4)).toBeDefined();
  });
});

describe('an answer pla cannot read', () => {
  it('a read answered with a sign-in page is an error naming what came (exit 11)', async () => {
    await serve({});
    (service as SpringStyleService).server.setRoutes([{ path: /.*/, reply: SIGN_IN_PAGE }]);
    const result = await run(['det', 'get', '1', '-q']);
    expect(result.exitCode).toBe(11);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the service answered text/html ("Sign in - Corporate SSO") (status 200)');
  });

  it('a delete answered with a sign-in page is read back: gone is deleted (exit 0), still there is not (exit 5)', async () => {
    const svc = await serve({ write: answering('delete', SIGN_IN_PAGE, true) });
    const done = await run(['det', 'delete', '2', '--yes']);
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toMatch(/deleted determination 2 \(the answer was text\/html .*read back: not found\)/);
    expect(svc.record('determinations', 2)).toBeUndefined();

    await svc.close();
    const kept = await serve({ write: answering('delete', SIGN_IN_PAGE, false) });
    const notDone = await run(['det', 'delete', '2', '--yes']);
    expect(notDone.exitCode).toBe(5);
    expect(notDone.stderr).toContain('not deleted');
    expect(notDone.stderr).toContain('read back: the record is still there');
    expect(kept.record('determinations', 2)).toBeDefined();
  });

  it("a cancel answered with a sign-in page is decided by the task's state read back", async () => {
    // The gateway lets the cancel of 11 through, not that of 10; both are answered with its page.
    const svc = await serve({ write: answering('cancel', (request) => (request.id === 11 ? (request.apply(), SIGN_IN_PAGE) : SIGN_IN_PAGE), false) });
    const done = await run(['tasks', 'cancel', '11', '--yes']);
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toContain('read back: CANCELLED');
    expect(svc.record('tasks', 11)?.status).toBe('CANCELLED');
    const notDone = await run(['tasks', 'cancel', '10', '--yes']);
    expect(notDone.exitCode).toBe(5);
    expect(notDone.stderr).toContain('read back: the task is PENDING');
    expect(svc.record('tasks', 10)?.status).toBe('PENDING');
  });

  it('an update answered with a sign-in page is confirmed by its fields read back', async () => {
    const svc = await serve({ write: answering('update', SIGN_IN_PAGE, true) });
    const result = await run(['det', 'update', '3', '--data', '{"code":"NEW"}', '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 3, code: 'NEW' });
    expect(svc.record('determinations', 3)?.code).toBe('NEW');
  });

  it('an update of 3 answered with record 4 is never printed as 3: read back, the fields not there, not done', async () => {
    const svc = await serve({ write: answering('update', { body: { data: { id: 4, code: 'OTHER' } } }, false) });
    const result = await run(['det', 'update', '3', '--data', '{"code":"NEW"}', '-o', 'json']);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('record 4 for id 3');
    expect(svc.record('determinations', 3)?.code).not.toBe('NEW');
  });

  it('a create answered with a sign-in page cannot be read back: unknown outcome, in the file, exit 11', async () => {
    const svc = await serve({ write: answering('create', SIGN_IN_PAGE, true) });
    const unknownFile = join(dir.path, 'unknown.ndjson');
    const result = await run(['det', 'create', '--data', '{"code":"ATD-NEW"}', '--unknown-outcome', unknownFile, '-q']);
    expect(result.exitCode).toBe(11);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('outcome unknown');
    expect(result.stderr).toContain(unknownFile);
    const [kept] = await ndjson(unknownFile);
    expect(kept).toMatchObject({ code: 'ATD-NEW' });
    expect(kept?._error).toContain('text/html');
    // The service did create it: exactly why pla must not say either way.
    expect(svc.records('determinations').filter((r) => r.code === 'ATD-NEW')).toHaveLength(1);
    const lines = await receipt();
    expect(lines.filter((line) => line.type === 'record')).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ type: 'end', exitCode: 11, counts: { unknown: 1 } });
  });
});

describe('soft 404s', () => {
  it('get of a missing id answered 200 {"data": null} is not found (exit 4)', async () => {
    await serve({ softNotFound: true });
    const result = await run(['det', 'get', '77', '-q']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('determination 77 not found');
  });

  it('remove of a record that is gone reports deleted; one still there, with no profile naming decommissioned, is unconfirmed', async () => {
    const svc = await serve({ softNotFound: true });
    const gone = await run(['det', 'remove', '2', '--yes', '-o', 'json']);
    expect(gone.exitCode, gone.stderr).toBe(0);
    expect(JSON.parse(gone.stdout)).toEqual({ id: 2, outcome: 'deleted' });
    expect(svc.record('determinations', 2)).toBeUndefined();
    // The service set its own word (DECOMMISSIONED): not pla's to take for it without the profile saying so.
    const kept = await run(['det', 'remove', '1', '--yes', '-o', 'json']);
    expect(kept.exitCode).toBe(11);
    expect(JSON.parse(kept.stdout)).toEqual({ id: 1, outcome: 'unconfirmed' });
    expect(kept.stderr).toContain('unconfirmed: 1 is still there after the remove');
    expect(kept.stderr).toContain('pla config set-wire decommissioned=VALUE');
    expect(svc.record('determinations', 1)?.status).toBe('DECOMMISSIONED');
  });
});

describe('remove says only what reading back shows', () => {
  it('a remove answered success that left the record ACTIVE is unconfirmed without a profile naming decommissioned: exit 11, not in the receipt', async () => {
    const svc = await serve({ write: (request) => (request.verb === 'remove' ? { body: { success: true } } : plainAnswer(request)) });
    const result = await run(['det', 'remove', '3', '--yes', '-o', 'json']);
    expect(result.exitCode).toBe(11);
    expect(JSON.parse(result.stdout)).toEqual({ id: 3, outcome: 'unconfirmed' });
    expect(result.stderr).toContain('unconfirmed: 3 is still there');
    expect(svc.record('determinations', 3)?.status).toBe('ACTIVE');
    const lines = await receipt();
    expect(lines.filter((line) => line.type === 'record')).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ exitCode: 11 });
  });

  it('a bulk remove that left a record ACTIVE exits 9 with it of unknown outcome; the receipt holds only what was removed', async () => {
    const svc = await serve({
      write: (request) => {
        if (request.verb !== 'removeBulk' || !request.items) return plainAnswer(request);
        request.items[0]?.apply();
        return { body: { success: true, data: null } };
      },
    });
    const unknown = join(dir.path, 'unknown.ndjson');
    const result = await run(['det', 'remove', '2', '3', '--yes', '-o', 'json', '--unknown-outcome', unknown]);
    expect(result.exitCode).toBe(9);
    expect(JSON.parse(result.stdout)).toEqual([{ id: 2, outcome: 'deleted' }]);
    expect(result.stderr).toContain('removed 1, failed 0, outcome unknown 1');
    expect(await ndjson(unknown)).toEqual([
      expect.objectContaining({ id: 3, _error: expect.stringContaining('read back: the record is still there (status ACTIVE)') as unknown }),
    ]);
    expect(svc.record('determinations', 2)).toBeUndefined();
    expect(svc.record('determinations', 3)?.status).toBe('ACTIVE');
    // Undo must never recreate what is still there: only id 2 is receipted as removed.
    const records = (await receipt()).filter((line) => line.type === 'record');
    expect(records.map((line) => line.id)).toEqual([2]);
  });
});

describe('bulk answers item by item', () => {
  /** A per-item service: each item carried out alone, the answer one result per item. */
  const perItem =
    (result: (item: BulkItem, error?: Refusal) => unknown) =>
    (request: WriteRequest): FakeReply => {
      if (!request.items) return plainAnswer(request);
      return {
        body: {
          success: true,
          data: request.items.map((item) => {
            try {
              return result(item, undefined) ?? item.apply();
            } catch (error) {
              if (error instanceof Refusal) return result(item, error);
              throw error;
            }
          }),
        },
      };
    };

  it('cancelled:false with a reason counts as failed, in the rejects, exit 9', async () => {
    const svc = await serve({
      write: perItem((item, error) => {
        if (!error) {
          item.apply();
          return { id: item.id, cancelled: true };
        }
        return { id: item.id, cancelled: false, reason: error.message };
      }),
    });
    const rejects = join(dir.path, 'rejects.ndjson');
    const result = await run(['tasks', 'cancel', '10', '12', '11', '--yes', '--rejects', rejects]);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/cancelled 2, failed 1/);
    expect(await ndjson(rejects)).toEqual([{ id: 12, _line: 2, _error: 'task 12 is already COMPLETED' }]);
    expect(svc.records('tasks').map((t) => [t.id, t.status])).toEqual([
      [10, 'CANCELLED'],
      [11, 'CANCELLED'],
      [12, 'COMPLETED'],
    ]);
    const lines = await receipt();
    expect(lines.filter((line) => line.type === 'record').map((line) => line.id)).toEqual([10, 11]);
    expect(lines.at(-1)).toMatchObject({ exitCode: 9, counts: { cancel: 2, failed: 1 } });
  });

  it('a bulk upsert whose answer marks two records failed: failed 2, and only the others in the receipt', async () => {
    const svc = await serve({
      write: perItem((item, error) => {
        const code = (item.value as { code?: string }).code ?? '';
        return code.startsWith('BAD')
          ? { ...(item.value as object), success: false, errorMessage: 'code is reserved' }
          : error
            ? { success: false, error: error.message }
            : undefined;
      }),
    });
    const rejects = join(dir.path, 'rejects.ndjson');
    const input = ['{"id":2,"code":"OK-2"}', '{"code":"BAD-1"}', '{"code":"OK-NEW"}', '{"id":3,"code":"BAD-3"}'].join('\n');
    const result = await pla(['det', 'upsert', '--file', '-', '--format', 'ndjson', '--rejects', rejects, '-o', 'json'], {
      server: svc.server,
      configDir: dir.path,
      input,
    });
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/upserted 2 \(created 1, updated 1\), failed 2/);
    expect((await ndjson(rejects)).map((r) => [r.code, r._error])).toEqual([
      ['BAD-1', 'code is reserved'],
      ['BAD-3', 'code is reserved'],
    ]);
    expect(JSON.parse(result.stdout).map((r: { code: string }) => r.code)).toEqual(['OK-2', 'OK-NEW']);
    expect(svc.record('determinations', 2)?.code).toBe('OK-2');
    expect(svc.record('determinations', 3)?.code).toBe('ATD-TRF');
    const records = (await receipt()).filter((line) => line.type === 'record');
    expect(records.map((line) => line.action)).toEqual(['update', 'create']);
  });

  it('items a bulk delete answer leaves out are read back: gone is deleted, still there is failed', async () => {
    const svc = await serve({
      write: (request) => {
        if (request.verb !== 'deleteBulk' || !request.items) return plainAnswer(request);
        // Deletes 2 and 3, keeps 4, and lists only 2.
        for (const item of request.items) if (item.id !== 4) item.apply();
        return { body: { data: [{ id: 2, deleted: true }] } };
      },
    });
    const rejects = join(dir.path, 'rejects.ndjson');
    const result = await run(['det', 'delete', '2', '3', '4', '--yes', '--rejects', rejects]);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/deleted 2, failed 1/);
    const [rejected] = await ndjson(rejects);
    expect(rejected).toMatchObject({ id: 4 });
    expect(rejected?._error).toContain('the answer left it out; read back: the record is still there');
    expect(svc.records('determinations').map((r) => r.id)).toEqual([1, 4]);
  });

  it('creates a bulk answer leaves out cannot be read back: unknown outcome, in the file, exit 9; the one it lists is matched by its fields', async () => {
    const svc = await serve({
      write: (request) => {
        if (request.verb !== 'upsertBulk') return plainAnswer(request);
        const made = request.apply() as unknown[];
        return { body: { data: made.slice(0, 1) } };
      },
    });
    const unknownFile = join(dir.path, 'unknown.ndjson');
    const input = ['{"code":"N-1"}', '{"code":"N-2"}', '{"code":"N-3"}'].join('\n');
    const result = await pla(['det', 'upsert', '--file', '-', '--format', 'ndjson', '--unknown-outcome', unknownFile], {
      server: svc.server,
      configDir: dir.path,
      input,
    });
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/upserted 1 .*outcome unknown 2/);
    expect((await ndjson(unknownFile)).map((r) => r.code)).toEqual(['N-2', 'N-3']);
    expect(svc.records('determinations').filter((r) => String(r.code).startsWith('N-'))).toHaveLength(3);
    expect((await receipt()).at(-1)).toMatchObject({ exitCode: 9, counts: { unknown: 2 } });
  });

  it('a bulk cancel answered with a sign-in page: each task read back', async () => {
    const svc = await serve({ write: answering('cancelBulk', SIGN_IN_PAGE, false) });
    const rejects = join(dir.path, 'rejects.ndjson');
    const result = await run(['tasks', 'cancel', '10', '11', '--yes', '--rejects', rejects]);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/cancelled 0, failed 2/);
    expect((await ndjson(rejects)).map((r) => r._error)).toEqual([
      expect.stringContaining('read back: the task is PENDING'),
      expect.stringContaining('read back: the task is RUNNING'),
    ]);
    expect(svc.records('tasks').map((t) => t.status)).toEqual(['PENDING', 'RUNNING', 'COMPLETED']);
  });
});
