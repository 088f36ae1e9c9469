/**
 * What keeps slow and greedy clients from tying the server up (issue 9 item 11):
 * a cap on open connections (one more gets a plain 503 problem and is closed, not
 * silently dropped as `server.maxConnections` would), node's whole-request timeout
 * for slow bodies (408), and a timeout for a response the client does not read.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  maxConnections: number;
  requestTimeoutMs: number;
  writeTimeoutMs: number;
}

/** The answer to a connection over the cap, written on the raw socket (no request has been read yet). */
function refusal(max: number): string {
  const body = JSON.stringify({
    type: 'urn:pla:problem:too-many-connections',
    title: 'Service Unavailable',
    status: 503,
    detail: `the server has ${max} connections open, its limit (--max-connections); retry shortly`,
    instance: '/',
  });
  return (
    'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json; charset=utf-8\r\n' +
    `Retry-After: 1\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/**
 * Applies the limits to a node:http server. Returns a test for the sockets it
 * refused: a request that still arrives on one before it closes is not to be run.
 */
export function guardConnections(server: Server, limits: Pick<ConnectionLimits, 'maxConnections' | 'requestTimeoutMs'>): (socket: Socket) => boolean {
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = Math.min(server.headersTimeout, limits.requestTimeoutMs);
  const open = new Set<Socket>();
  const refused = new WeakSet<Socket>();
  // Runs before node's own listener, so the refusal is the first thing written.
  server.prependListener('connection', (socket: Socket) => {
    if (open.size >= limits.maxConnections) {
      refused.add(socket);
      socket.end(refusal(limits.maxConnections), () => socket.destroy());
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return (socket) => refused.has(socket);
}

/**
 * Disconnects a client that has not taken a response `writeTimeoutMs` after it was
 * written (its socket buffers full, the rest waiting in the server's memory).
 */
export function watchResponseWrite(res: ServerResponse, writeTimeoutMs: number, warn: (message: string) => void, what: string): void {
  if (res.writableFinished) return;
  const timer = setTimeout(() => {
    warn(`${what}: the client did not read the response within ${writeTimeoutMs / 1000} s; connection closed`);
    res.destroy();
  }, writeTimeoutMs);
  timer.unref();
  const done = () => clearTimeout(timer);
  res.once('finish', done);
  res.once('close', done);
}
