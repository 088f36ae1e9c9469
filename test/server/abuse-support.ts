/**
 * Raw-socket clients that misbehave on purpose, for abuse.test.ts and its PostgreSQL
 * twin: one that leaves a keyed write before its body, one that trickles its
 * headers, one that sends what an HTTP library would not.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { LocalServer } from '../support/local-server.js';

export const DET = '/api/v1/asset-transaction-type-determinations';

/** Determinations the server holds. */
export async function countRecords(server: LocalServer): Promise<number> {
  return ((await server.http('GET', `${DET}?size=1`)).body as { page: { totalElements: number } }).page.totalElements;
}

/** A raw connection to the server. */
export async function rawSocket(server: LocalServer): Promise<Socket> {
  const { port, hostname } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

/** Everything the server sends on `socket` until it closes it, as text. */
function readUntilClosed(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return new Promise((resolve) => {
    socket.once('close', () => resolve(text));
    // A refused or cut connection may also fail a write of ours: the answer is what was read.
    socket.on('error', () => undefined);
  });
}

/** Sends `text` as is and resolves with the whole answer once the server closes the connection. */
export async function rawAnswer(server: LocalServer, text: string): Promise<string> {
  const socket = await rawSocket(server);
  const answer = readUntilClosed(socket);
  socket.write(text);
  return answer;
}

/**
 * Starts a keyed create, and leaves once the server has taken the request in: its
 * `100 Continue` (node writes it just before the request reaches the server's
 * pipeline) says so. A part of the body is sent, the rest never.
 */
export async function abandonKeyedWrite(server: LocalServer, key: string, taken: () => Promise<void> = async () => undefined): Promise<void> {
  const socket = await rawSocket(server);
  const continued = new Promise<void>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('100 Continue')) resolve();
    });
  });
  socket.on('error', () => undefined);
  socket.write(
    `POST ${DET} HTTP/1.1\r\nHost: x\r\nx-api-key: ${server.adminKey}\r\ncontent-type: application/json\r\nidempotency-key: ${key}\r\n` +
      'expect: 100-continue\r\ncontent-length: 100\r\n\r\n',
  );
  await continued;
  await taken();
  socket.write('{"code":"W-');
  socket.destroy();
}

/** A connection sending a header line now and then, never finishing its headers. */
export interface Trickle {
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
  /** What the server sent, once it closed the connection; undefined while it is open. */
  answer(): string | undefined;
  stop(): void;
}

/** Opens a connection that trickles header lines (one every 200 ms) until the server closes it or `stop`. */
export async function trickle(server: LocalServer): Promise<Trickle> {
  const socket = await rawSocket(server);
  let answer: string | undefined;
  const closed = readUntilClosed(socket).then((text) => (answer = text));
  socket.write('GET /_admin/health HTTP/1.1\r\nHost: x\r\n');
  const timer = setInterval(() => {
    if (socket.writable) socket.write('X-Trickle: a\r\n');
  }, 200);
  void closed.finally(() => clearInterval(timer));
  return {
    closed,
    answer: () => answer,
    stop() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** A GET from `localAddress` (another address of this machine, e.g. 127.0.0.2), on a connection of its own. */
export function localRequest(server: LocalServer, path: string, localAddress: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.url), { localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
