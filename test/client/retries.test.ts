import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { EXIT_CODES, InterruptedError, NetworkError, RateLimitError, ServerError } from '../../src/errors.js';
import { rejectionOf, useFakeServer } from './helpers.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const unavailable = { status: 503, headers: { 'retry-after': '0' }, body: { detail: 'try later' } };

describe('retries', () => {
  const fake = useFakeServer();
  const attemptsAt = (path: string) => fake.server().requests.filter((r) => r.path === path);

  it('retries a GET on 5xx and succeeds', async () => {
    fake.server().setRoutes([{ path: `${DET}/1`, reply: [unavailable, { status: 502 }, { status: 200, body: { id: 1 } }] }]);
    const before = attemptsAt(`${DET}/1`).length;
    const result = await fake.client({ retries: 3 }).call('determinations.get', { params: { id: 1 } });
    expect(result.data).toEqual({ id: 1 });
    expect(attemptsAt(`${DET}/1`).length - before).toBe(3);
  });

  it('uses up the retries and then maps the last answer (4 attempts by default)', async () => {
    fake.server().setRoutes([{ path: `${DET}/2`, reply: unavailable }]);
    const error = await rejectionOf(fake.client({ retries: undefined }).call('determinations.get', { params: { id: 2 } }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.exitCode).toBe(EXIT_CODES.server);
    expect(error.message).toBe(`503 Service Unavailable: try later (GET ${DET}/2, 4 attempts)`);
    expect(attemptsAt(`${DET}/2`)).toHaveLength(4);
  });

  it('a create answered 5xx is sent once (its outcome unknown); with retryUnsafe it is retried under the same key', async () => {
    fake.server().setRoutes([{ path: DET, reply: [unavailable, { status: 200, body: { success: true, data: { id: 3 } } }] }]);
    const error = await rejectionOf(fake.client({ retries: 3 }).call('determinations.create', { body: { code: 'X' } }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.outcomeUnknown).toBe(true);
    expect(attemptsAt(DET)).toHaveLength(1);

    fake.server().setRoutes([{ path: DET, reply: [unavailable, { status: 200, body: { success: true, data: { id: 3 } } }] }]);
    await fake.client({ retries: 2, retryUnsafe: true }).call('determinations.create', { body: { code: 'X' } });
    const [first, second] = attemptsAt(DET).slice(-2);
    expect(attemptsAt(DET)).toHaveLength(3);
    expect(first!.headers['idempotency-key']).toEqual(expect.any(String));
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(second!.body).toEqual({ code: 'X' });
  });

  it('an upsert of records without id counts as a create; with every id it is retried', async () => {
    const path = `${DET}/createOrUpdate/bulk`;
    const flaky = [unavailable, { status: 200, body: { success: true, data: [] } }];
    fake.server().setRoutes([{ path, reply: flaky }]);
    const client = fake.client({ retries: 3 });
    await rejectionOf(client.call('determinations.upsertBulk', { body: [{ id: 1, a: 1 }, { a: 2 }] }));
    expect(attemptsAt(path)).toHaveLength(1);
    fake.server().setRoutes([{ path, reply: flaky }]);
    await client.call('determinations.upsertBulk', {
      body: [
        { id: 1, a: 1 },
        { id: 2, a: 2 },
      ],
    });
    expect(attemptsAt(path)).toHaveLength(3);
  });

  it('calls that are safe to repeat keep their retries on 5xx: a cancel (POST) and a bulk delete', async () => {
    const cancel = '/api/v1/batch/mass-inter-company-transfer/tasks/cancel/5';
    fake.server().setRoutes([
      { path: cancel, reply: [unavailable, { status: 200 }] },
      { path: `${DET}/bulk`, reply: [unavailable, { status: 200, body: { success: true, data: null } }] },
    ]);
    const client = fake.client({ retries: 3 });
    await client.call('tasks.cancel', { params: { id: 5 } });
    await client.call('determinations.deleteBulk', { body: [1, 2] });
    expect(attemptsAt(cancel)).toHaveLength(2);
    expect(attemptsAt(`${DET}/bulk`)).toHaveLength(2);
  });

  it('a create is retried on 429 and sends the idempotency key it was given', async () => {
    fake.server().setRoutes([
      {
        path: DET,
        reply: [
          { status: 429, headers: { 'retry-after': '0' } },
          { status: 200, body: { success: true, data: { id: 9 } } },
        ],
      },
    ]);
    await fake.client({ retries: 3 }).call('determinations.create', { body: { code: 'Y' }, idempotencyKey: 'run-1-batch-0' });
    const sent = attemptsAt(DET).slice(-2);
    expect(sent.map((r) => r.headers['idempotency-key'])).toEqual(['run-1-batch-0', 'run-1-batch-0']);
  });

  it('429 after the last retry → RateLimitError (exit 6)', async () => {
    fake.server().setRoutes([{ path: `${DET}/4`, reply: { status: 429, headers: { 'retry-after': '0' } } }]);
    const error = await rejectionOf(fake.client({ retries: 1 }).call('determinations.get', { params: { id: 4 } }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.exitCode).toBe(EXIT_CODES.rateLimited);
    expect(attemptsAt(`${DET}/4`)).toHaveLength(2);
  });

  it('does not retry a 4xx other than 429', async () => {
    fake.server().setRoutes([{ path: `${DET}/5`, reply: { status: 404 } }]);
    await rejectionOf(fake.client({ retries: 3 }).call('determinations.get', { params: { id: 5 } }));
    expect(attemptsAt(`${DET}/5`)).toHaveLength(1);
  });

  it('honours Retry-After in seconds', async () => {
    const times: number[] = [];
    fake.server().setRoutes([
      {
        path: `${DET}/6`,
        reply: () => {
          times.push(Date.now());
          return times.length === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200, body: { id: 6 } };
        },
      },
    ]);
    const lines: string[] = [];
    await fake.client({ retries: 1, trace: (l) => lines.push(l) }).call('determinations.get', { params: { id: 6 } });
    expect(times).toHaveLength(2);
    // Lower bound only (timers may fire a little early relative to Date.now() granularity).
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
    expect(lines).toContain('↻ retry 1/1 in 1.0 s after 429');
  });

  it('backs off with jitter when there is no Retry-After', async () => {
    fake.server().setRoutes([{ path: `${DET}/7`, reply: [{ status: 500 }, { status: 200, body: { id: 7 } }] }]);
    const lines: string[] = [];
    await fake.client({ retries: 1, trace: (l) => lines.push(l) }).call('determinations.get', { params: { id: 7 } });
    const retry = lines.find((l) => l.startsWith('↻'));
    expect(retry).toMatch(/^↻ retry 1\/1 in 0\.[0-5] s after 500$/);
  });

  it('an abort during the wait ends the call with InterruptedError', async () => {
    fake.server().setRoutes([{ path: `${DET}/8`, reply: { status: 503, headers: { 'retry-after': '30' } } }]);
    const controller = new AbortController();
    const call = fake.client({ retries: 1, trace: () => controller.abort() }).call('determinations.get', { params: { id: 8 }, signal: controller.signal });
    const error = await rejectionOf(call);
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error.exitCode).toBe(EXIT_CODES.interrupted);
  });
});

describe('retries on network failures: before the request was sent, and after', () => {
  it('a connection reset after the request was sent: a create is sent once, a read is retried', async () => {
    const seen: string[] = [];
    // Reads the whole request, then drops the connection without answering.
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, retries: 2 });
    try {
      const error = await rejectionOf(client.call('determinations.create', { body: { code: 'Z' } }));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.outcomeUnknown).toBe(true);
      expect(seen).toEqual([`POST ${DET}`]);

      await rejectionOf(client.call('determinations.get', { params: { id: 1 } }));
      expect(seen.slice(1)).toEqual([`GET ${DET}/1`, `GET ${DET}/1`, `GET ${DET}/1`]);
    } finally {
      await client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a refused connection (nothing sent) to a service elsewhere is retried, for a create too', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    // A service on another machine (a refusal on this one is final: test/client/errors.test.ts),
    // reached through undici's documented custom connector at the closed port.
    const dispatcher = new Agent({
      connect: (_options, connected) => {
        const socket = connect(port, '127.0.0.1', () => connected(null, socket));
        socket.once('error', (error) => connected(error, null));
      },
    });
    const lines: string[] = [];
    const client = createClient({ baseUrl: 'http://pla.invalid:1', dispatcher, retries: 1, trace: (line) => lines.push(line) });
    try {
      const error = await rejectionOf(client.call('determinations.create', { body: { code: 'Z' } }));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.outcomeUnknown).toBeUndefined();
      expect(lines.filter((line) => line.startsWith('↻ retry 1/1'))).toHaveLength(1);
    } finally {
      await client.close();
      await dispatcher.close();
    }
  });
});
