/**
 * onSend, last before the bytes go: a body left unread (refused before it was read,
 * or cut at the size limit) is drained first, so the client still sending it reads
 * the answer rather than a reset connection (connection-guard.ts); then the request
 * goes into the request log, and a watch starts for a client that does not read its
 * answer (--write-timeout).
 *
 * Logged here, before the write, not onResponse, after it: a request pipelined after
 * this one on the same connection (the log itself) must find it in the log.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { maskKey } from '../../contract/secrets.js';
import { hasBody } from '../body.js';
import { drainRequest, watchResponseWrite } from '../connection-guard.js';
import { keptBody, type RequestLogEntry } from '../request-log.js';
import type { Runtime } from '../runtime.js';

export function answer(runtime: Runtime) {
  return function answered(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void {
    const req = request.raw;
    // A request without a body has nothing left to read, though node marks it complete
    // only after its listener returns: a GET answered at once needs no drain.
    if (req.complete || req.destroyed || !hasBody(req)) {
      finish(runtime, request, reply);
      return done(null, payload);
    }
    void drainRequest(req).then((all) => {
      // Past the drain's limits the rest is not read: the connection closes after the answer.
      if (!all) reply.header('connection', 'close');
      finish(runtime, request, reply);
      done(null, payload);
    });
  };
}

function finish(runtime: Runtime, request: FastifyRequest, reply: FastifyReply): void {
  logAnswer(runtime, request, reply.statusCode);
  watchResponseWrite(reply.raw, runtime.options.writeTimeoutMs, runtime.warn, `${request.method} ${request.pla?.instance ?? request.url}`);
}

/** Adds the request and its answer to the request log (and the console's lines). */
function logAnswer(runtime: Runtime, request: FastifyRequest, status: number): void {
  const state = request.pla;
  const req = request.raw;
  const key = state?.key;
  const header = req.headers['x-api-key'];
  const presented = key ? undefined : header;
  // Field by field, no spreads: every request passes here.
  const entry: RequestLogEntry = {
    at: Date.now(),
    method: request.method,
    path: state?.path ?? request.url,
    status,
    ms: Math.round(performance.now() - (state?.started ?? performance.now())),
    key: key ?? (typeof presented === 'string' && presented ? maskKey(presented) : undefined),
    idempotencyKey: state?.idempotencyKey,
    replayed: state?.replayed ?? false,
  };
  const body = keptBody(req);
  if (body) {
    entry.body = body;
    if (typeof header === 'string') entry.presented = header;
  }
  runtime.log.add(entry);
}
