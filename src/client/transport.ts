/**
 * Sends one logical request over Node's own node:http / node:https, through one
 * keep-alive agent (src/client/agent.ts), and repeats it by the rules of
 * src/client/retry-policy.ts: a short loop of attempts, each with its bounds
 * (src/client/answer-bounds.ts), abort and trace. Returns any answer the service
 * gave (error statuses included, with their bodies); throws only when there was
 * none. Why not undici, whose public index alone costs more start-up than the
 * target allows: docs/startup.md.
 */
import { request as httpRequest, type Agent, type ClientRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { maskUrl } from '../contract/secrets.js';
import { createAgent, dropStaleSockets, noteAnswered } from './agent.js';
import { ANSWER_CUT_SHORT, createAnswerBounds, MalformedAnswerError, type AnswerBounds } from './answer-bounds.js';
import { transportError, type RequestLabel } from './error-mapping.js';
import type { ProxyChoice } from './proxy.js';
import { CONNECT_TIMEOUT, HEADERS_TIMEOUT, retryDelay } from './retry-policy.js';
import { answerLine, failureLine, retryLine, sendLine } from './trace.js';

export interface OutgoingRequest {
  method: string;
  /** Path and query, base URL prefix included. */
  path: string;
  headers: Record<string, string>;
  /** Strings and buffers only: each attempt sends the body again, which a consumed stream cannot be. */
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Whether the request may be repeated once the service may have received it (see retry-policy). */
  repeatable: boolean;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body, decoded when it came gzip, deflate or br encoded. */
  body: Buffer;
  /** Attempts it took, for messages. */
  attempts: number;
}

export interface TransportOptions {
  origin: string;
  retries: number;
  /** Deadline of each attempt, connection, headers and whole body (src/client/answer-bounds.ts). */
  timeoutMs: number;
  /** Most bytes an answer's body may have. */
  maxAnswerBytes: number;
  /** The `http.Agent` (or `https.Agent`) to send through; tests may inject one, left open on close (its owner closes it). */
  agent?: Agent;
  /** The proxy to send through (ignored with an injected agent). */
  proxy?: ProxyChoice;
  /** PEM text of extra trusted certificate authorities (ignored with an injected agent). */
  ca?: string;
  /** Where `ca` came from, for the hint on a certificate error. */
  caFile?: string;
  trace?: (line: string) => void;
  env?: string;
}

export interface Transport {
  send(request: OutgoingRequest): Promise<RawResponse>;
  /** Request details for error messages. */
  label(request: OutgoingRequest, attempts: number): RequestLabel;
  close(): Promise<void>;
}

/** What one attempt came to: an answer, or a failure and how far the attempt got. */
type Attempt =
  | { answer: Omit<RawResponse, 'attempts'> }
  | {
      error: Error;
      /** The request was handed to a connection, so it may have reached the service. */
      sent: boolean;
      /** The answer's headers had arrived. */
      answered: boolean;
    };

/** Sent as Accept-Encoding: exactly the codings `decode` reads. */
const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function coded(message: string, code: string, cause?: unknown): Error {
  return Object.assign(new Error(message, cause === undefined ? {} : { cause }), { code });
}

/**
 * What a failure of the connection means by when it came: the parser's `HPE_*`
 * errors are an answer that is not HTTP; any other failure once the headers had
 * arrived cut the body short.
 */
function classify(error: Error, answered: boolean): Error {
  const code = codeOf(error);
  if (code?.startsWith('HPE_')) return new MalformedAnswerError(code, `the answer is not HTTP pla can read: ${error.message}`, { cause: error });
  if (answered && code !== ANSWER_CUT_SHORT) return coded('the connection closed before the whole answer arrived', ANSWER_CUT_SHORT, error);
  return error;
}

/**
 * The body as sent before its Content-Encoding (codings applied in order are undone
 * in reverse), decoded no further than the size cap: a small gzip body may inflate
 * to gigabytes. node:zlib is loaded only for an encoded answer.
 */
function decode(body: Buffer, encoding: string | string[] | undefined, bounds: AnswerBounds, maxBytes: number): Buffer {
  const codings = String(encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  if (codings.length === 0 || body.length === 0) return body;
  const zlib = process.getBuiltinModule('node:zlib');
  const limit = { maxOutputLength: maxBytes };
  let decoded = body;
  for (const coding of codings) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') decoded = zlib.gunzipSync(decoded, limit);
      else if (coding === 'br') decoded = zlib.brotliDecompressSync(decoded, limit);
      else if (coding === 'deflate') {
        // "deflate" is zlib-wrapped by the standard, raw from some servers.
        const wrapped = decoded[0] !== undefined && (decoded[0] & 0x0f) === 8;
        decoded = wrapped ? zlib.inflateSync(decoded, limit) : zlib.inflateRawSync(decoded, limit);
      } else throw new MalformedAnswerError('PLA_ANSWER_ENCODING', `the answer came with Content-Encoding ${coding}, which pla did not ask for`);
    } catch (error) {
      if (error instanceof MalformedAnswerError) throw error;
      if (codeOf(error) === 'ERR_BUFFER_TOO_LARGE') throw bounds.tooLarge();
      throw new MalformedAnswerError(codeOf(error) ?? 'PLA_ANSWER_ENCODING', `the answer's ${coding} body does not decode: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return decoded;
}

/**
 * Whether a 204, which has no body by HTTP's rules and may not announce one (unlike
 * a 304 or the answer to a HEAD, whose Content-Length describes the resource),
 * announces one anyway: its bytes would come after the answer, and the next request
 * on the connection would read them as its own answer's start.
 */
function strayBody(status: number, headers: IncomingMessage['headers']): boolean {
  return status === 204 && (Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined);
}

/** Waits `ms`; false when `signal` aborted the wait. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (waited: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      resolve(waited);
    };
    const aborted = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** Creates the transport; an injected agent is used as is and left open on close. */
export function createTransport(options: TransportOptions): Transport {
  const owned = options.agent === undefined;
  const agent =
    options.agent ??
    createAgent({
      origin: options.origin,
      timeoutMs: options.timeoutMs,
      ...(options.proxy ? { proxy: options.proxy } : {}),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
    });
  if (owned && options.proxy) options.trace?.(`proxy ${maskUrl(options.proxy.url)} (${options.proxy.source})`);
  const secure = new URL(options.origin).protocol === 'https:';

  const label = (request: OutgoingRequest, attempts: number): RequestLabel => ({
    method: request.method,
    path: request.path,
    origin: options.origin,
    attempts,
    timeoutMs: options.timeoutMs,
    ...(options.env ? { env: options.env } : {}),
    ...(options.proxy ? { proxy: options.proxy } : {}),
    ...(options.caFile ? { caFile: options.caFile } : {}),
  });

  /** One attempt: sends the request and reads its whole answer, within the bounds. */
  function attempt(request: OutgoingRequest): Promise<Attempt> {
    return new Promise<Attempt>((resolve) => {
      const started = performance.now();
      const bounds = createAnswerBounds({ maxBytes: options.maxAnswerBytes, deadlineMs: options.timeoutMs });
      let sent = false;
      let answered = false;
      let settled = false;
      let socket: Socket | undefined;
      const headers: Record<string, string> = { ...request.headers, 'accept-encoding': ACCEPTED_ENCODINGS };
      if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
      const url = options.origin + request.path;
      options.trace?.(sendLine(request.method, url, request.headers));
      const send = secure ? process.getBuiltinModule('node:https').request : httpRequest;

      const settle = (outcome: Attempt) => {
        if (settled) return;
        settled = true;
        bounds.done();
        request.signal?.removeEventListener('abort', onAbort);
        if ('error' in outcome) options.trace?.(failureLine(outcome.error, performance.now() - started));
        resolve(outcome);
      };
      const fail = (error: Error) => {
        settle({ error, sent, answered });
        req.destroy();
      };
      const onAbort = () => fail(request.signal?.reason instanceof Error ? request.signal.reason : new Error('aborted'));

      let response: IncomingMessage | undefined;
      const req: ClientRequest = send(url, { method: request.method, headers, agent });
      req.on('error', (error) => {
        // Bytes after a whole answer (a 204 sent with a body) are not this answer's: the parser
        // fails on them and Node drops the connection, but the answer stands.
        if (response?.complete) return;
        fail(classify(error, answered));
      });
      req.on('socket', (connection: Socket) => {
        socket = connection;
        // Sent once the connection is ready for the request: a failure before that cannot have reached the service.
        const ready = () => (sent = true);
        if (req.reusedSocket) ready();
        else if ((connection as Socket & { encrypted?: boolean }).encrypted) connection.once('secureConnect', ready);
        else if (connection.connecting) connection.once('connect', ready);
        else ready();
      });
      req.on('response', (res: IncomingMessage) => {
        answered = true;
        response = res;
        const status = res.statusCode ?? 0;
        const statusText = res.statusMessage ?? '';
        options.trace?.(answerLine(status, statusText, performance.now() - started));
        res.on('error', (error) => {
          if (!res.complete) fail(classify(error, true));
        });
        if (!bounds.started(res.headers)) return;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (bounds.data(chunk)) chunks.push(chunk);
        });
        res.on('close', () => {
          if (!res.complete) fail(coded('the connection closed before the whole answer arrived', ANSWER_CUT_SHORT));
        });
        res.on('end', () => {
          if (!res.complete) return;
          if (socket) noteAnswered(socket);
          let body: Buffer;
          try {
            body = decode(Buffer.concat(chunks), res.headers['content-encoding'], bounds, options.maxAnswerBytes);
          } catch (error) {
            fail(error as Error);
            return;
          }
          const outcome = { answer: { status, statusText, headers: res.headers, body } };
          // An answer that may not have a body but says it has one may send it: its connection is not used again.
          if (socket && !socket.destroyed && strayBody(status, res.headers)) {
            socket.once('close', () => settle(outcome));
            socket.destroy();
          } else settle(outcome);
        });
      });
      bounds.attempt(fail, () =>
        sent
          ? coded(`no answer within ${options.timeoutMs / 1000} s`, HEADERS_TIMEOUT)
          : coded(`could not connect within ${options.timeoutMs / 1000} s`, CONNECT_TIMEOUT),
      );
      request.signal?.addEventListener('abort', onAbort, { once: true });
      req.end(request.body);
    });
  }

  async function send(request: OutgoingRequest): Promise<RawResponse> {
    const { signal } = request;
    const interrupted = (attempts: number) => transportError(signal?.reason, label(request, attempts), true);
    if (signal?.aborted) throw interrupted(0);
    for (let attempts = 1; ; attempts += 1) {
      // A call that must not be repeated goes out on a fresh socket (src/client/agent.ts).
      if (!request.repeatable) await dropStaleSockets(agent);
      const outcome = await attempt(request);
      if (signal?.aborted) throw interrupted(attempts);
      let delay: number | undefined;
      let cause: string;
      if ('answer' in outcome) {
        const { status, headers } = outcome.answer;
        cause = String(status);
        delay = retryDelay({
          repeatable: request.repeatable,
          sent: true,
          status,
          attempt: attempts,
          retries: options.retries,
          retryAfter: headers['retry-after'],
        });
        if (delay === undefined) return { ...outcome.answer, attempts };
      } else {
        const { error, sent } = outcome;
        cause = codeOf(error) ?? error.message;
        delay = retryDelay({ repeatable: request.repeatable, sent, code: codeOf(error) ?? '', attempt: attempts, retries: options.retries });
        if (delay === undefined) {
          const failure = transportError(error, label(request, attempts), false);
          // Not repeated although the service may have received it: the caller must not assume either way.
          if (sent && !request.repeatable) failure.outcomeUnknown = true;
          throw failure;
        }
      }
      options.trace?.(retryLine(attempts, options.retries, delay, cause));
      if (!(await pause(delay, signal))) throw interrupted(attempts);
    }
  }

  return {
    send,
    label,
    close: async () => {
      if (owned) agent.destroy();
    },
  };
}
