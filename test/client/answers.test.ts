/**
 * What a 2xx answer means (src/client/answer.ts, envelope.ts, failure-signals.ts),
 * through the client over HTTP: every envelope family gives the data, every
 * failure form inside a 200 is an error of the class its status calls for, a
 * record's own `code` and `status` are never verdicts, a read by id with no record
 * is a not-found, and an answer of the wrong kind says what came.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError, RejectedError, ServerError, UnreadableAnswerError } from '../../src/errors.js';
import { rejectionOf, useFakeServer } from './helpers.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const RECORD = { id: 7, code: 'ATD-ACQ', status: 'ACTIVE' };

describe('answers', () => {
  const fake = useFakeServer();

  it.each([
    ['data with success and message', { success: true, message: 'ok', data: RECORD }],
    ['data alone', { data: RECORD }],
    ['result', { success: true, result: RECORD }],
    ['payload', { payload: RECORD }],
    ['body with code 0 and msg', { code: 0, msg: 'ok', body: RECORD }],
    ['content', { content: RECORD, timestamp: '2026-01-01T00:00:00Z' }],
    ['data with extras of the envelope', { success: true, data: RECORD, meta: { version: 2 }, apiVersion: '1.4' }],
    ['no envelope', RECORD],
  ])('reads the record inside %s', async (_name, body) => {
    fake.server().setRoutes([{ path: `${DET}/7`, reply: { body } }]);
    expect((await fake.client().call('determinations.get', { params: { id: 7 } })).data).toEqual(RECORD);
  });

  it('reads a list under items, and a page under data without taking its content for an envelope', async () => {
    fake.server().setRoutes([
      { path: `${DET}/bulk`, reply: { body: { items: [RECORD] } } },
      { path: DET, reply: { body: { data: { content: [RECORD], page: { number: 0, size: 1, totalElements: 1, totalPages: 1 } } } } },
    ]);
    const client = fake.client();
    expect((await client.call('determinations.createBulk', { body: [{ code: 'A' }] })).data).toEqual([RECORD]);
    expect((await client.page('determinations.list', { paging: { page: 0, size: 1 } })).items).toEqual([RECORD]);
  });

  it.each([
    ['success false without data', { success: false, message: 'Cannot delete: referenced by 3 lease contracts' }, RejectedError, 'referenced by 3'],
    ['success "false"', { success: 'false', message: 'refused' }, RejectedError, 'refused'],
    ['status ERROR with errors', { status: 'ERROR', errors: [{ message: 'record is locked' }] }, RejectedError, 'record is locked'],
    ['errors list alone', { errors: ['code is reserved'] }, RejectedError, 'code is reserved'],
    ['code 500 with msg', { code: 500, msg: 'database down' }, ServerError, 'database down'],
    ['code 409 with msg', { code: 409, msg: 'in use' }, RejectedError, 'code 409'],
    ['not found in words', { success: false, message: 'determination 7 not found' }, NotFoundError, 'not found'],
  ])('a 200 with %s is a failure', async (_name, body, kind, words) => {
    fake.server().setRoutes([{ path: `${DET}/7`, reply: { body } }]);
    const error = await rejectionOf(fake.client().call('determinations.update', { params: { id: 7 }, body: { code: 'B' } }));
    expect(error).toBeInstanceOf(kind);
    expect(error.message).toContain(words);
  });

  it('a record with its own code, a FAILED status and an error field of data is not a failure', async () => {
    const task = { id: 5, status: 'FAILED', code: 'T-5', message: 'transfer failed at step 2' };
    fake.server().setRoutes([{ path: /tasks\/5$/, reply: { body: { success: true, data: task } } }]);
    expect((await fake.client().call('tasks.get', { params: { id: 5 } })).data).toEqual(task);
    fake.server().setRoutes([{ path: /tasks\/5$/, reply: { body: task } }]);
    expect((await fake.client().call('tasks.get', { params: { id: 5 } })).data).toEqual(task);
  });

  it("a bare notification page states its own failure; its paging fields and its records' fields are never one", async () => {
    const notice = { id: 3, status: 'ERROR', code: 'N-3', error: 'delivery failed', success: false };
    const spring = { number: 0, size: 1, totalElements: 1, totalPages: 1, numberOfElements: 1, first: true, last: true, empty: false };
    const paging = { ...spring, sort: { sorted: false }, pageable: { pageNumber: 0, pageSize: 1 } };
    const path = /\/api\/notifications\/ana$/;
    const list = () => fake.client().page('notifications.list', { params: { userName: 'ana' }, paging: { page: 0, size: 1 } });
    fake.server().setRoutes([{ path, reply: { body: { content: [notice], ...paging } } }]);
    expect((await list()).items).toEqual([notice]);
    fake.server().setRoutes([{ path, reply: { body: { content: [notice], ...paging, code: 500, msg: 'database down' } } }]);
    const error = await rejectionOf(list());
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toContain('database down');
  });

  it('a read by id answered with no record is not found (a soft 404)', async () => {
    for (const body of [{ success: true, data: null }, { data: null }, { code: 0, msg: 'ok' }, undefined]) {
      fake.server().setRoutes([{ path: `${DET}/9`, reply: body === undefined ? { status: 200 } : { body } }]);
      const error = await rejectionOf(fake.client().call('determinations.get', { params: { id: 9 } }));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toContain('determination 9 not found');
    }
  });

  it('HTML, text or the wrong kind of JSON is an unreadable answer that names what came', async () => {
    const client = fake.client();
    fake
      .server()
      .setRoutes([{ path: `${DET}/7`, reply: { headers: { 'content-type': 'text/html' }, body: '<html><head><title>Sign in</title></head></html>' } }]);
    const html = await rejectionOf(client.call('determinations.get', { params: { id: 7 } }));
    expect(html).toBeInstanceOf(UnreadableAnswerError);
    expect(html.saw).toBe('text/html ("Sign in")');

    fake.server().setRoutes([{ path: `${DET}/7`, reply: { headers: { 'content-type': 'application/json' }, body: '<html>oops</html>' } }]);
    expect((await rejectionOf(client.call('determinations.get', { params: { id: 7 } }))).saw).toBe('invalid JSON (application/json: "<html>oops</html>")');

    fake.server().setRoutes([{ path: `${DET}/7`, reply: { body: { data: [RECORD] } } }]);
    expect((await rejectionOf(client.call('determinations.get', { params: { id: 7 } }))).saw).toBe('a JSON array of 1');

    // A write answered without its record and without saying it succeeded confirms nothing.
    fake.server().setRoutes([{ path: `${DET}/7`, reply: { body: { message: 'queued' } } }]);
    expect(await rejectionOf(client.call('determinations.update', { params: { id: 7 }, body: { code: 'B' } }))).toBeInstanceOf(UnreadableAnswerError);
    // …while one that says so outright does.
    fake.server().setRoutes([{ path: `${DET}/7`, reply: { body: { success: true } } }]);
    expect((await client.call('determinations.update', { params: { id: 7 }, body: { code: 'B' } })).success).toBe(true);
  });
});
