/**
 * Answers to what node's HTTP parser refuses before there is a request (headers
 * trickling past --header-timeout, a body past --request-timeout, headers too large,
 * bytes that are not HTTP), as problem+json like every other answer of the server.
 * fastify's `clientErrorHandler`: it would otherwise answer with its own JSON shape.
 */
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';

function statusOf(code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

const DETAILS: Record<number, string> = {
  408: 'the request did not arrive within the time allowed (--header-timeout, --request-timeout)',
  431: 'the request headers are larger than the server takes',
  400: 'the request is not HTTP the server can read',
};

export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection, or one already gone: there is no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = statusOf(error.code);
  const title = STATUS_CODES[status] ?? 'Bad Request';
  const body = JSON.stringify({ type: `urn:pla:problem:${title.toLowerCase().replace(/\s+/g, '-')}`, title, status, detail: DETAILS[status], instance: '/' });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json; charset=utf-8\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
