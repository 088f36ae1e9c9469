import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { AuthError, EXIT_CODES, InterruptedError, NetworkError, NotFoundError, RateLimitError, RejectedError, ServerError } from '../../src/errors.js';
import { KEY, rejectionOf, useFakeServer } from './helpers.js';

const DET = '/api/v1/asset-transaction-type-determinations';

describe('error mapping', () => {
  const fake = useFakeServer();

  const cases = [
    { status: 400, type: RejectedError, exit: EXIT_CODES.rejected },
    { status: 401, type: AuthError, exit: EXIT_CODES.auth },
    { status: 403, type: AuthError, exit: EXIT_CODES.auth },
    { status: 404, type: NotFoundError, exit: EXIT_CODES.notFound },
    { status: 409, type: RejectedError, exit: EXIT_CODES.rejected },
    { status: 429, type: RateLimitError, exit: EXIT_CODES.rateLimited },
    { status: 500, type: ServerError, exit: EXIT_CODES.server },
  ] as const;

  for (const { status, type, exit } of cases) {
    it(`maps ${status} to ${type.name} (exit ${exit}) with one line`, async () => {
      fake.server().setRoutes([
        {
          path: `${DET}/7`,
          reply: {
            status,
            headers: { 'content-type': 'application/problem+json' },
            body: { type: 'about:blank', title: 'Problem', status, detail: `the service says ${status}`, errors: [{ path: 'code', message: 'is required' }] },
          },
        },
      ]);
      const error = await rejectionOf(fake.client().call('determinations.get', { params: { id: 7 } }));
      expect(error).toBeInstanceOf(type);
      expect(error.exitCode).toBe(exit);
      expect(error.message).not.toContain('\n');
      expect(error.message).toContain(`${status} `);
      expect(error.message).toContain(`the service says ${status} — code: is required`);
      expect(error.message).toContain(`(GET ${DET}/7)`);
      // Facts, not advice: hints for a person are the CLI's (test/cli/error-hints.test.ts).
      expect(error.hint).toBeUndefined();
      expect(error.request).toEqual({ method: 'GET', path: `${DET}/7`, origin: fake.server().url });
      expect(error.detail).toMatchObject({ detail: `the service says ${status}` });
    });
  }

  it('reads the message of an envelope or an `error` field, and names the environment the call was for', async () => {
    fake.server().setRoutes([{ path: `${DET}/1`, reply: { status: 401, body: { success: false, message: 'unknown key', data: null } } }]);
    const error = await rejectionOf(fake.client({ env: 'qa' }).call('determinations.get', { params: { id: 1 } }));
    expect(error.message).toBe(`401 Unauthorized: unknown key (GET ${DET}/1)`);
    expect(error.request).toMatchObject({ env: 'qa' });

    fake.server().setRoutes([{ path: `${DET}/1`, reply: { status: 422, body: { error: 'Unprocessable' } } }]);
    const rejected = await rejectionOf(fake.client().call('determinations.get', { params: { id: 1 } }));
    expect(rejected).toBeInstanceOf(RejectedError);
    expect(rejected.message).toBe(`422 Unprocessable Entity: Unprocessable (GET ${DET}/1)`);
  });

  it('never puts the key in messages, even when the service echoes it', async () => {
    fake.server().setRoutes([{ path: `${DET}/1`, reply: { status: 401, body: { detail: `key ${KEY} is revoked`, key: KEY } } }]);
    const error = await rejectionOf(fake.client().call('determinations.get', { params: { id: 1 } }));
    expect(error.message).toContain('key ••••abcd is revoked');
    expect(JSON.stringify(error.detail)).not.toContain(KEY);
    expect(JSON.stringify(error.problem)).not.toContain(KEY);
    expect(`${error.message} ${error.hint}`).not.toContain(KEY);
  });

  it("leaves a proxy's HTML error page out of the one-line message", async () => {
    const page = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>nginx</body>\r\n</html>\r\n';
    fake.server().setRoutes([{ path: `${DET}/1`, reply: { status: 502, headers: { 'content-type': 'text/html' }, body: page } }]);
    const error = await rejectionOf(fake.client({ retries: 0 }).call('determinations.get', { params: { id: 1 } }));
    expect(error.message).toBe(`502 Bad Gateway (GET ${DET}/1)`);
    fake.server().setRoutes([{ path: `${DET}/1`, reply: { status: 400, headers: { 'content-type': 'text/plain' }, body: 'bad id\r\nmore' } }]);
    expect((await rejectionOf(fake.client().call('determinations.get', { params: { id: 1 } }))).message).toBe(`400 Bad Request: bad id (GET ${DET}/1)`);
  });

  it('treats a 2xx envelope with success false as a refusal', async () => {
    fake.server().setRoutes([{ path: `${DET}/1`, reply: { status: 200, body: { success: false, message: 'locked', data: null } } }]);
    const error = await rejectionOf(fake.client().call('determinations.get', { params: { id: 1 } }));
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.message).toContain('locked');
  });
});

describe('network failures', () => {
  const silent: Server[] = [];
  afterAll(async () => {
    for (const server of silent) await new Promise((resolve) => server.close(resolve));
  });

  async function listen(server: Server): Promise<number> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return address.port;
  }

  it('connection refused → NetworkError (exit 8), not a timeout', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, retries: 0 });
    const error = await rejectionOf(client.call('topics.list', { params: { service: 'x' } }));
    await client.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.exitCode).toBe(EXIT_CODES.network);
    expect(error.message).toBe(`cannot reach http://127.0.0.1:${port} (ECONNREFUSED) (GET /api/topics/x)`);
    expect(error.timedOut).toBe(false);
    expect(error.hint).toBeUndefined();
  });

  it('connection refused on this machine → failed at the first attempt, whatever --retries (nothing listens there)', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const lines: string[] = [];
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, retries: 3, trace: (line) => lines.push(line) });
    const error = await rejectionOf(client.call('topics.list', { params: { service: 'x' } }));
    await client.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect(lines.filter((line) => /retry/i.test(line))).toEqual([]);
  });

  it('an attempt that gets no answer in time → NetworkError after the retries', async () => {
    // Accepts connections and never answers.
    const sockets: import('node:net').Socket[] = [];
    const mute = createServer((socket) => sockets.push(socket));
    silent.push(mute);
    const port = await listen(mute);
    const lines: string[] = [];
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 1, timeoutMs: 200, trace: (l) => lines.push(l) });
    const error = await rejectionOf(client.call('determinations.get', { params: { id: 1 } }));
    await client.close();
    for (const socket of sockets) socket.destroy();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('no answer from');
    expect(error.message).toContain('PLA_HEADERS_TIMEOUT');
    expect(error.message).toContain('2 attempts');
    expect(error.timedOut).toBe(true);
    expect(lines.filter((l) => l.startsWith('→'))).toHaveLength(2);
    expect(lines.join('\n')).toContain('(x-api-key: none)');
  });

  it('an abort while waiting for the answer ends the call with InterruptedError', async () => {
    const sockets: import('node:net').Socket[] = [];
    const mute = createServer((socket) => sockets.push(socket));
    silent.push(mute);
    const port = await listen(mute);
    const controller = new AbortController();
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 3, signal: controller.signal });
    const call = client.call('determinations.get', { params: { id: 1 } });
    setTimeout(() => controller.abort(), 50);
    const error = await rejectionOf(call);
    await client.close();
    for (const socket of sockets) socket.destroy();
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error.exitCode).toBe(EXIT_CODES.interrupted);
  });
});
