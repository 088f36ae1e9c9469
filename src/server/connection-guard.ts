/**
 * What keeps slow and greedy clients from tying the server up (issue 9 item 11,
 * issue 26): a cap on open connections and a smaller one per client address (one
 * more gets a plain 503 problem and is closed, not silently dropped as
 * `server.maxConnections` would), node's timeouts for slow headers and slow bodies
 * (408), and a timeout for a response the client does not read. Without the
 * per-address cap and the header timeout, 300 connections trickling header bytes
 * held every slot for 60 s at a time and everyone else got 503s.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  headerTimeoutMs: number;
  requestTimeoutMs: number;
  writeTimeoutMs: number;
}

/** The answer to a connection over a cap, written on the raw socket (no request has been read yet). */
function refusal(detail: string): string {
  const body = JSON.stringify({ type: 'urn:pla:problem:too-many-connections', title: 'Service Unavailable', status: 503, detail, instance: '/' });
  return (
    'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json; charset=utf-8\r\n' +
    `Retry-After: 1\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** How long a refused connection may stay half-closed for its client to read the refusal and close. */
const REFUSED_LINGER_MS = 1000;

/** How often node checks the header and request timeouts: often enough that neither runs over by more than half. */
export function timeoutCheckInterval(limits: Pick<ConnectionLimits, 'headerTimeoutMs' | 'requestTimeoutMs'>): number {
  return Math.min(1000, limits.headerTimeoutMs / 2, limits.requestTimeoutMs / 2);
}

/**
 * Applies the limits to a node:http server (created with `timeoutCheckInterval` as
 * its `connectionsCheckingInterval`). Returns a test for the sockets it refused: a
 * request that still arrives on one before it closes is not to be run.
 */
export function guardConnections(
  server: Server,
  limits: Pick<ConnectionLimits, 'maxConnections' | 'maxConnectionsPerAddress' | 'headerTimeoutMs' | 'requestTimeoutMs'>,
): (socket: Socket) => boolean {
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = Math.min(limits.headerTimeoutMs, limits.requestTimeoutMs);
  const open = new Set<Socket>();
  /** Open connections per client address (addresses with none are removed). */
  const perAddress = new Map<string, number>();
  const refused = new WeakSet<Socket>();
  const refuse = (socket: Socket, detail: string) => {
    refused.add(socket);
    // Ended, not destroyed at once: closing a socket with bytes of the client still
    // unread resets the connection, and a client that was still sending (headers
    // trickling in) may then lose the refusal. It closes when the client closes its
    // side, or after REFUSED_LINGER_MS; it holds no slot meanwhile.
    socket.end(refusal(detail));
    setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  };
  // Runs before node's own listener, so the refusal is the first thing written.
  server.prependListener('connection', (socket: Socket) => {
    if (open.size >= limits.maxConnections) {
      refuse(socket, `the server has ${limits.maxConnections} connections open, its limit (--max-connections); retry shortly`);
      return;
    }
    const address = socket.remoteAddress ?? '';
    const fromAddress = perAddress.get(address) ?? 0;
    if (fromAddress >= limits.maxConnectionsPerAddress) {
      refuse(
        socket,
        `${address || 'this address'} has ${limits.maxConnectionsPerAddress} connections open, the limit per address (--max-connections-per-address); retry shortly`,
      );
      return;
    }
    open.add(socket);
    perAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      open.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  return (socket) => refused.has(socket);
}

/**
 * Disconnects a client that has not taken a response `writeTimeoutMs` after it was
 * written (its socket buffers full, the rest waiting in the server's memory).
 */
export function watchResponseWrite(res: ServerResponse, writeTimeoutMs: number, warn: (message: string) => void, what: string): void {
  // `destroyed` too: on Node 24+ a response ended after the request timeout destroyed
  // its socket is never `writableFinished`, and its 'close' has already been emitted.
  if (res.writableFinished || res.destroyed) return;
  const timer = setTimeout(() => {
    if (res.destroyed) return;
    warn(`${what}: the client did not read the response within ${writeTimeoutMs / 1000} s; connection closed`);
    res.destroy();
  }, writeTimeoutMs);
  timer.unref();
  const done = () => clearTimeout(timer);
  res.once('finish', done);
  res.once('close', done);
}

/**
 * Most of a refused request's body read and thrown away so that its client, still
 * sending, reads the refusal (a 413, a 401): closing on unread bytes resets the
 * connection, and the client sees ECONNRESET or EPIPE instead. Past these the
 * connection is closed as before.
 */
export const DRAIN_LIMITS = { bytes: 64 * 1024 * 1024, ms: 10_000 } as const;

/**
 * Reads and discards what is left of `req`'s body, up to `limits`; resolves when it
 * has all been read (true) or a limit was reached or the client went (false).
 */
export function drainRequest(req: IncomingMessage, limits: { bytes: number; ms: number } = DRAIN_LIMITS): Promise<boolean> {
  if (req.complete || req.destroyed) return Promise.resolve(req.complete);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (all: boolean) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      if (!all) req.pause();
      resolve(all);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limits.bytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(req.complete);
    const timer = setTimeout(() => finish(false), limits.ms);
    timer.unref();
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
    req.resume();
  });
}

/** CONNECT is no method of this service: answered 405 on the raw socket rather than dropped unanswered (node's default). */
export function refuseConnect(server: Server): void {
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    const body = JSON.stringify({
      type: 'urn:pla:problem:method-not-allowed',
      title: 'Method Not Allowed',
      status: 405,
      detail: 'CONNECT is not supported: this is no proxy',
      instance: '/',
    });
    socket.end(
      'HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/problem+json; charset=utf-8\r\nAllow: GET, HEAD, POST, PUT, DELETE\r\n' +
        `Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}
