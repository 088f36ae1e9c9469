/**
 * The transport (undici) against a raw TCP server that answers byte for byte what
 * a test writes: the cases a well-behaved HTTP server cannot give. A stale
 * keep-alive socket after a Retry-After pause, a body cut short, compressed
 * bodies, a 204 with a body, an answer that is not HTTP, and a proxy reached over
 * https (docs/client.md).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { hintFor } from '../../src/cli/error-hints.js';
import { createClient } from '../../src/client/index.js';
import type { ClientOptions } from '../../src/client/index.js';
import { EXIT_CODES, NetworkError } from '../../src/errors.js';
import { eventually } from '../support/eventually.js';
import { selfSigned } from '../support/tls-front.js';
import { rejectionOf } from './helpers.js';

interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Which connection it came on (0 for the first) and its place on that connection. */
  connection: number;
  onConnection: number;
}

/** What the test writes for a request: the raw answer (or nothing), then whether to end, reset or keep the connection. */
type Respond = (request: RawRequest, socket: Socket) => void;

interface RawServer {
  url: string;
  requests: RawRequest[];
  connections: number;
  /** Resolves when every connection so far has been closed (by either side). */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP server reading HTTP/1.1 requests (headers and a Content-Length body) and handing each to `respond`. */
async function startRawServer(respond: Respond): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const waiting: Array<() => void> = [];
  const state = { requests: [] as RawRequest[], connections: 0 };
  const server: Server = createServer((socket) => {
    const connection = state.connections++;
    let onConnection = 0;
    let buffered = Buffer.alloc(0);
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) for (const resolve of waiting.splice(0)) resolve();
    });
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [line = '', ...fields] = buffered.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(
          fields.map((field) => [field.slice(0, field.indexOf(':')).toLowerCase(), field.slice(field.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.subarray(end + 4 + length);
        const [method = '', path = ''] = line.split(' ');
        const request = { method, path, headers, connection, onConnection: onConnection++ };
        state.requests.push(request);
        respond(request, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return state.requests;
    },
    get connections() {
      return state.connections;
    },
    allClosed: () => (sockets.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A raw answer: status line, headers (Content-Length from the body unless given), body. */
function answer(status: string, headers: Record<string, string>, body: Buffer | string = ''): Buffer {
  const bytes = Buffer.from(body);
  const all = { 'content-length': String(bytes.length), ...headers };
  const head = `HTTP/1.1 ${status}\r\n${Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}

const json = (value: unknown) => JSON.stringify(value);
const JSON_TYPE = { 'content-type': 'application/json' };

describe('the transport against raw answers', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.splice(0).map((close) => close()));
  });
  async function serve(respond: Respond): Promise<RawServer> {
    const server = await startRawServer(respond);
    cleanup.push(() => server.close());
    return server;
  }
  function clientFor(server: RawServer, options: Partial<ClientOptions> = {}) {
    const client = createClient({ baseUrl: server.url, retries: 2, ...options });
    cleanup.push(() => client.close());
    return client;
  }

  it('after a Retry-After pause a create goes out on a fresh socket, not the one the server is closing', async () => {
    // The first answer keeps its connection open; any later request on that connection is
    // reset unanswered, as a server closing an idle connection does when a request crosses it.
    const server = await serve((request, socket) => {
      if (request.connection === 0 && request.onConnection === 0) socket.write(answer('429 Too Many Requests', { 'retry-after': '2' }));
      else if (request.connection === 0) socket.resetAndDestroy();
      else socket.write(answer('201 Created', JSON_TYPE, json({ id: 9, code: 'Q' })));
    });
    const result = await clientFor(server).call('determinations.create', { body: { code: 'Q' } });
    expect(result.data).toEqual({ id: 9, code: 'Q' });
    expect(server.requests.map((r) => [r.method, r.connection])).toEqual([
      ['POST', 0],
      ['POST', 1],
    ]);
  });

  it('a read on a kept-alive socket reset before any byte of its answer is retried on a new one', async () => {
    const server = await serve((request, socket) => {
      if (request.connection === 0 && request.onConnection === 1) socket.resetAndDestroy();
      else socket.write(answer('200 OK', JSON_TYPE, json({ id: 1 })));
    });
    // undici puts a connection back in the pool a turn of the event loop after its answer: the
    // second call waits for it, so that it goes out on the kept-alive connection.
    const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
    cleanup.push(() => dispatcher.close());
    const client = clientFor(server, { dispatcher });
    await client.call('determinations.get', { params: { id: 1 } });
    await eventually(
      async () => {
        const stats = dispatcher.stats[server.url];
        return stats !== undefined && 'free' in stats && stats.free === 1;
      },
      10_000,
      5,
    );
    const again = await client.call('determinations.get', { params: { id: 1 } });
    expect(again.data).toEqual({ id: 1 });
    expect(server.requests.map((r) => r.connection)).toEqual([0, 0, 1]);
  });

  it('a body cut short is its own error (exit 8): a create is not repeated and its outcome is unknown; a read is retried', async () => {
    const server = await serve((_request, socket) => {
      socket.write(answer('200 OK', { ...JSON_TYPE, 'content-length': '100' }, '{"id": 5, "co'));
      socket.destroy();
    });
    const client = clientFor(server);
    const create = await rejectionOf(client.call('determinations.create', { body: { code: 'C' } }));
    expect(create).toBeInstanceOf(NetworkError);
    expect(create.exitCode).toBe(EXIT_CODES.network);
    expect(create.message).toMatch(/^the answer from http:\/\/127\.0\.0\.1:\d+ was cut short: the connection closed before its end \(POST /);
    expect(create.failure).toEqual({ kind: 'answer-cut-short' });
    expect(create.outcomeUnknown).toBe(true);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);

    const read = await rejectionOf(client.call('determinations.get', { params: { id: 5 } }));
    expect(read).toBeInstanceOf(NetworkError);
    expect(read.failure).toEqual({ kind: 'answer-cut-short' });
    expect(read.outcomeUnknown).toBeUndefined();
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(3);
  });

  it('a chunked body that ends before its last chunk is cut short too', async () => {
    const server = await serve((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"id"\r\n');
      socket.destroy();
    });
    const error = await rejectionOf(clientFor(server, { retries: 0 }).call('determinations.get', { params: { id: 5 } }));
    expect(error.failure).toEqual({ kind: 'answer-cut-short' });
  });

  it('gzip, deflate (wrapped or raw) and br bodies are decoded, and asked for', async () => {
    const body = json({ id: 3, code: 'Z'.repeat(200) });
    const encoded: Record<string, Buffer> = {
      gzip: gzipSync(body),
      deflate: deflateSync(body),
      'raw-deflate': deflateRawSync(body),
      br: brotliCompressSync(body),
    };
    let coding = 'gzip';
    const server = await serve((_request, socket) => {
      socket.write(answer('200 OK', { ...JSON_TYPE, 'content-encoding': coding === 'raw-deflate' ? 'deflate' : coding }, encoded[coding]));
    });
    const client = clientFor(server);
    for (coding of Object.keys(encoded)) {
      const result = await client.call('determinations.get', { params: { id: 3 } });
      expect(result.data, coding).toEqual({ id: 3, code: 'Z'.repeat(200) });
    }
    expect(server.requests.every((r) => r.headers['accept-encoding'] === 'gzip, deflate, br')).toBe(true);
  });

  it('a compressed body that inflates past --max-answer-size stops there (exit 8, not retried)', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    const server = await serve((_request, socket) => socket.write(answer('200 OK', { ...JSON_TYPE, 'content-encoding': 'gzip' }, bomb)));
    const error = await rejectionOf(clientFor(server, { maxAnswerBytes: 1024 * 1024 }).call('determinations.get', { params: { id: 3 } }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.failure).toEqual({ kind: 'answer-too-large', limitBytes: 1024 * 1024 });
    expect(server.requests).toHaveLength(1);
  });

  it('a body that does not decode is a malformed answer (exit 8)', async () => {
    const server = await serve((_request, socket) => socket.write(answer('200 OK', { ...JSON_TYPE, 'content-encoding': 'gzip' }, 'not gzip at all')));
    const error = await rejectionOf(clientFor(server).call('determinations.get', { params: { id: 3 } }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.failure).toEqual({ kind: 'malformed-answer' });
    expect(server.requests).toHaveLength(1);
  });

  it('a 204 that comes with a body still confirms a delete, and the next call does not read that body as its answer', async () => {
    const server = await serve((request, socket) => {
      const stray = answer('204 No Content', JSON_TYPE, json({ deleted: true }));
      const head = stray.indexOf('\r\n\r\n') + 4;
      // The first in one packet, the second with its body a moment after the answer.
      if (request.method === 'DELETE' && request.path.endsWith('/2')) socket.write(stray);
      else if (request.method === 'DELETE') {
        socket.write(stray.subarray(0, head));
        setTimeout(() => socket.write(stray.subarray(head)), 50);
      } else
        // The read is answered after the stray body has come.
        setTimeout(() => socket.write(answer('200 OK', JSON_TYPE, json({ id: 2 }))), 150);
    });
    const client = clientFor(server, { retries: 0 });
    const deleted = await client.call('determinations.delete', { params: { id: 2 } });
    expect(deleted.status).toBe(204);
    const deletedAgain = await client.call('determinations.delete', { params: { id: 3 } });
    expect(deletedAgain.status).toBe(204);
    const read = await client.call('determinations.get', { params: { id: 2 } });
    expect(read.data).toEqual({ id: 2 });
    // Each answer's connection was dropped: on the 204's, the stray body would have been read as the next answer's start.
    const [first, second, get] = server.requests.map((r) => [r.method, r.connection] as const);
    expect([first?.[0], second?.[0], get?.[0]]).toEqual(['DELETE', 'DELETE', 'GET']);
    expect(new Set([first?.[1], second?.[1], get?.[1]]).size).toBe(3);
  });

  it('an answer that is not HTTP is exit 8 with a hint, not pla failing (exit 1)', async () => {
    const server = await serve((_request, socket) => {
      socket.write('SSH-2.0-OpenSSH_9.6\r\n');
      socket.end();
    });
    const error = await rejectionOf(clientFor(server).call('determinations.get', { params: { id: 1 } }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.exitCode).toBe(EXIT_CODES.network);
    expect(error.message).toMatch(/^the answer from http:\/\/127\.0\.0\.1:\d+ could not be read \(HPE_/);
    expect(hintFor(error)).toMatch(/does not answer as an HTTP service/);
    expect(server.requests).toHaveLength(1);
  });

  it('an https proxy URL: the CONNECT goes to the proxy over TLS (its CA trusted), the request through the tunnel', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pla-proxy-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const files = selfSigned(dir, []);
    const service = await serve((_request, socket) => socket.write(answer('200 OK', JSON_TYPE, json({ id: 4 }))));
    const connects: string[] = [];
    const proxy = createHttpsServer({ cert: await readFile(files.cert), key: await readFile(files.key) });
    proxy.on('connect', (req, client: Socket, head: Buffer) => {
      connects.push(`${req.url} ${String(req.headers['proxy-authorization'])}`);
      const [host = '', port = ''] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const proxyUrl = `https://ana:s%40cret@127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const client = clientFor(service, { proxy: proxyUrl, ca: await readFile(files.cert, 'utf8') });
    const result = await client.call('determinations.get', { params: { id: 4 } });
    expect(result.data).toEqual({ id: 4 });
    const target = new URL(service.url).host;
    expect(connects).toEqual([`${target} Basic ${Buffer.from('ana:s@cret').toString('base64')}`]);
    proxy.closeAllConnections();
  });

  it('an injected dispatcher is sent through as it is (here to a host no resolver knows) and left open on close', async () => {
    const server = await serve((_request, socket) => socket.write(answer('200 OK', JSON_TYPE, json({ id: 6 }))));
    const port = Number(new URL(server.url).port);
    // undici's documented custom connector: every connection goes to the raw server.
    const dispatcher = new Agent({
      connect: (_options, connected) => {
        const socket = connect(port, '127.0.0.1', () => connected(null, socket));
        socket.once('error', (error) => connected(error, null));
      },
    });
    cleanup.push(() => dispatcher.close());
    const client = createClient({ baseUrl: 'http://pla.invalid:1', dispatcher, retries: 0 });
    const result = await client.call('determinations.get', { params: { id: 6 } });
    await client.close();
    expect(result.data).toEqual({ id: 6 });
    expect(server.requests[0]?.headers.host).toBe('pla.invalid:1');
    expect(dispatcher.closed).toBe(false);
    // Still usable after the client closed: it serves a second client.
    const again = await createClient({ baseUrl: 'http://pla.invalid:1', dispatcher, retries: 0 }).call('determinations.get', { params: { id: 6 } });
    expect(again.data).toEqual({ id: 6 });
  });

  it('an idle kept-alive connection is closed by the client after a few seconds', async () => {
    const server = await serve((_request, socket) => socket.write(answer('200 OK', { ...JSON_TYPE, 'keep-alive': 'timeout=60' }, json({ id: 1 }))));
    await clientFor(server).call('determinations.get', { params: { id: 1 } });
    // The server never closes it (and said it keeps it 60 s): only the client's idle timeout can.
    await server.allClosed();
    expect(server.connections).toBe(1);
  }, 30_000);
});
