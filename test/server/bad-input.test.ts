/**
 * Bad input over HTTP: each case gets its status and a problem+json body naming
 * what was wrong, and the store reads back unchanged afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type HttpResult, type LocalServer } from '../support/local-server.js';
import { readEverything } from './store-snapshot.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const TASKS = '/api/v1/batch/mass-inter-company-transfer/tasks';

let server: LocalServer;
let limited: LocalServer;
let readOnlyKey: string;

beforeAll(async () => {
  [server, limited] = await Promise.all([startLocalServer({ args: ['--max-body', '64kb'] }), startLocalServer({ seed: false, args: ['--rate-limit', '2'] })]);
  const created = await server.http('POST', '/_admin/keys', { body: { name: 'reader', permissions: ['determinations:read'] } });
  readOnlyKey = (created.body as { data: { secret: string } }).data.secret;
});

afterAll(async () => {
  await Promise.all([server?.stop(), limited?.stop()]);
});

function expectProblem(result: HttpResult, status: number, path?: string): void {
  expect(result.status).toBe(status);
  expect(result.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = result.body as {
    type: string;
    title: string;
    status: number;
    detail: string;
    instance: string;
    errors?: Array<{ path: string; message: string }>;
  };
  expect(problem).toMatchObject({ status, instance: expect.stringMatching(/^\//) as unknown });
  expect(problem.title).toEqual(expect.any(String));
  expect(problem.detail).toEqual(expect.any(String));
  expect(problem.type).toMatch(/^urn:pla:problem:/);
  if (path) expect(problem.errors?.map((e) => e.path)).toContain(path);
}

/** Runs `request`, checks its problem, and checks every collection reads back the same. */
async function refused(request: () => Promise<HttpResult>, status: number, path?: string): Promise<HttpResult> {
  const before = await readEverything(server);
  const result = await request();
  expectProblem(result, status, path);
  expect(await readEverything(server)).toEqual(before);
  return result;
}

describe('bad input', () => {
  it('malformed JSON is 400', async () => {
    await refused(() => server.http('POST', DET, { body: '{"code": "X",' }), 400, 'body');
  });

  it('wrong types are 400 naming each field path', async () => {
    const result = await refused(() => server.http('PUT', `${DET}/bulk`, { body: [{ id: 1, code: 'ok' }, { id: 'two' }] }), 400, 'body[1].id');
    expect(result.text).toContain('body[1].id');
    await refused(() => server.http('POST', '/api/notifications', { body: { forUserId: 'alice', viewed: 'yes', colour: 'red' } }), 400, 'body.viewed');
    await refused(() => server.http('PUT', `${DET}/decommission/bulk`, { body: { ids: [1] } }), 400, 'body');
    await refused(() => server.http('POST', '/api/notifications/workorder', { body: { 'WO-1': 'not an object' } }), 400, 'body.WO-1');
  });

  it('a bad path parameter is 400', async () => {
    await refused(() => server.http('GET', `${DET}/abc`), 400, 'id');
    // Number() would read these as 1000, 16 and 1: an id is plain digits.
    await refused(() => server.http('DELETE', `${DET}/1e3`), 400, 'id');
    await refused(() => server.http('DELETE', `${DET}/0x10`), 400, 'id');
    await refused(() => server.http('PUT', `${DET}/decommission/%201`), 400, 'id');
    await refused(() => server.http('PUT', `${DET}/decommission/modified-before/yesterday`), 400, 'modified_before');
  });

  it('a negative page is 400', async () => {
    await refused(() => server.http('GET', `${DET}?page=-1`), 400, 'page');
  });

  it('a size above the maximum (or below 1) is 400', async () => {
    await refused(() => server.http('GET', `${DET}?size=1001`), 400, 'size');
    await refused(() => server.http('POST', `${TASKS}/search?size=0`, { body: {} }), 400, 'size');
    await refused(() => server.http('GET', '/api/notifications/alice?size=5000'), 400, 'size');
  });

  it('an unknown id is 404, and a bulk naming one unknown id applies nothing', async () => {
    await refused(() => server.http('GET', `${DET}/999999`), 404);
    await refused(() => server.http('DELETE', `${DET}/bulk`, { body: [1, 999999] }), 404);
    await refused(
      () =>
        server.http('PUT', `${DET}/bulk`, {
          body: [
            { id: 1, name: 'renamed' },
            { id: 999998, name: 'x' },
          ],
        }),
      404,
    );
    await refused(() => server.http('POST', '/api/notifications/999999/read'), 404);
  });

  it('an invalid state change is 409', async () => {
    await refused(() => server.http('POST', `${TASKS}/cancel/4`), 409); // seed task 4 is COMPLETED
    await refused(() => server.http('POST', `${TASKS}/cancel/bulk`, { body: [1, 4] }), 409);
  });

  it('a body over --max-body is 413', async () => {
    const big = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ code: `C${i}` })));
    await refused(() => server.http('POST', `${DET}/bulk`, { body: big }), 413);
  });

  it('a 20 MB body over --max-body is read to its end and answered 413: the client reads the refusal, not a reset', async () => {
    const huge = JSON.stringify([{ code: 'HUGE', note: 'x'.repeat(20 * 1024 * 1024) }]);
    await refused(() => server.http('POST', `${DET}/bulk`, { body: huge }), 413);
    // Refused by its key before its body was read: the same.
    await refused(() => server.http('POST', `${DET}/bulk`, { body: huge, key: null }), 401);
  });

  it('a 20 MB body sent chunked (no length announced) is answered 413 after it was read: no reset while sending', async () => {
    const { request } = await import('node:http');
    const outcome = await new Promise<{ status?: number; error?: string }>((resolve) => {
      const req = request(new URL(`${DET}/bulk`, server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': server.adminKey },
      });
      let status: number | undefined;
      let failure: string | undefined;
      req.on('response', (res) => {
        status = res.statusCode;
        res.resume();
      });
      req.on('error', (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message));
      // Once the request is over, sent whole or failed: what the client saw.
      req.on('close', () => resolve({ ...(status === undefined ? {} : { status }), ...(failure === undefined ? {} : { error: failure }) }));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < 20 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end('"}]');
      };
      req.write('[{"code": "');
      pump();
    });
    expect(outcome).toEqual({ status: 413 });
  });

  it('HEAD works wherever GET does: the GET answer without its body', async () => {
    const get = await server.http('GET', `${DET}/1`);
    const head = await server.http('HEAD', `${DET}/1`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect((await server.http('HEAD', `${DET}/999999`)).status).toBe(404);
  });

  it('CONNECT is answered 405, not dropped', async () => {
    const { connect } = await import('node:net');
    const { port, hostname } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(answer).toContain('"status":405');
  });

  it('a wrong media type is 415', async () => {
    await refused(() => server.http('POST', DET, { body: '{"code":"X"}', headers: { 'content-type': 'text/plain' } }), 415);
    await refused(() => server.http('POST', '/api/images', { body: '{}' }), 415);
  });

  it('an unknown path is 404 and a wrong method 405 with Allow', async () => {
    await refused(() => server.http('GET', '/api/v2/nothing'), 404);
    const result = await refused(() => server.http('PATCH', `${DET}/1`), 405);
    expect(result.headers.allow).toBe('GET, PUT, DELETE, HEAD');
  });

  it('a missing, unknown or revoked key is 401', async () => {
    await refused(() => server.http('GET', DET, { key: null }), 401);
    await refused(() => server.http('POST', DET, { key: 'pla_local_guessed', body: { code: 'X' } }), 401);
    const created = await server.http('POST', '/_admin/keys', { body: { name: 'short-lived' } });
    const { id, secret } = (created.body as { data: { id: number; secret: string } }).data;
    expect((await server.http('GET', DET, { key: secret })).status).toBe(200);
    await server.http('DELETE', `/_admin/keys/${id}`);
    await refused(() => server.http('GET', DET, { key: secret }), 401);
  });

  it('a key without the permission is 403', async () => {
    expect((await server.http('GET', `${DET}/1`, { key: readOnlyKey })).status).toBe(200);
    await refused(() => server.http('DELETE', `${DET}/1`, { key: readOnlyKey }), 403);
    await refused(() => server.http('GET', '/api/topics/lease', { key: readOnlyKey }), 403);
    await refused(() => server.http('GET', '/_admin/requests', { key: readOnlyKey }), 403);
  });

  it('going over --rate-limit is 429 with Retry-After', async () => {
    const statuses: HttpResult[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await limited.http('GET', '/api/topics/lease'));
    const tooMany = statuses.find((r) => r.status === 429);
    expect(tooMany).toBeDefined();
    expectProblem(tooMany as HttpResult, 429);
    expect(Number((tooMany as HttpResult).headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
