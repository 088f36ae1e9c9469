/**
 * A reverse proxy on 127.0.0.1 that passes each request on to a service at once,
 * so the service carries it out, and holds back the answers of the requests
 * `holds` picks until `release()`: a client can then be stopped (SIGTERM, kill -9)
 * while the service has done what it asked and the client has not heard. Tests
 * wait on `held` (requests whose answers it holds) instead of sleeping.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldingProxy {
  url: string;
  /** Requests passed on, in order: method, path and the Idempotency-Key sent. */
  requests: Array<{ method: string; path: string; idempotencyKey?: string }>;
  /** Requests carried out by the service whose answers are held back now. */
  readonly held: number;
  /** Lets every held answer go, and every later one too. */
  release(): void;
  close(): Promise<void>;
}

/** Headers of one hop only: never passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'proxy-connection', 'upgrade']);

function passedOn(headers: IncomingHttpHeaders, options: HoldingProxyOptions = {}): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || (options.dropIdempotencyKey && name === 'idempotency-key')) continue;
    kept[name] = value;
  }
  return kept;
}

async function bodyOf(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** How the proxy passes requests on. */
export interface HoldingProxyOptions {
  /** Leave the `Idempotency-Key` header out (default: pass it on): the service behind then acts as one that ignores it. */
  dropIdempotencyKey?: boolean;
}

/** Starts a proxy in front of `target`; `holds` picks the requests whose answers are held back (until `release`). */
export async function startHoldingProxy(
  target: string,
  holds: (request: { method: string; path: string }) => boolean,
  options: HoldingProxyOptions = {},
): Promise<HoldingProxy> {
  const base = new URL(target);
  const requests: HoldingProxy['requests'] = [];
  let released = false;
  let held = 0;
  const waiting: Array<() => void> = [];

  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const key = req.headers['idempotency-key'];
      requests.push({ method, path, ...(typeof key === 'string' ? { idempotencyKey: key } : {}) });
      const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const out = httpRequest(
          { host: base.hostname, port: base.port, method, path, headers: { ...passedOn(req.headers, options), 'content-length': String(body.length) } },
          (response) => void bodyOf(response).then((text) => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: text }), reject),
        );
        out.on('error', reject);
        out.end(body);
      });
      if (!released && holds({ method, path })) {
        held += 1;
        await new Promise<void>((resume) => waiting.push(resume));
        held -= 1;
      }
      res.writeHead(answer.status, { ...passedOn(answer.headers), 'content-length': String(answer.body.length) });
      res.end(answer.body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get held() {
      return held;
    },
    release() {
      released = true;
      for (const resume of waiting.splice(0)) resume();
    },
    close: () =>
      new Promise<void>((resolve) => {
        released = true;
        for (const resume of waiting.splice(0)) resume();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
