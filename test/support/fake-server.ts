/**
 * A small route-table HTTP server with a request log, for client tests and for
 * checking exactly what the CLI sends. It is a real server on port 0: the client
 * talks HTTP to it like to the service. Use the local server (`pla server start`)
 * wherever it can produce the case; use this where it cannot (flat page shape,
 * a 503 with Retry-After, a service that chose other envelopes).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  method: string;
  /** Path without the query string, as received (still percent-encoded). */
  path: string;
  /** Query parameters; repeated names collect into arrays. */
  query: Record<string, string | string[]>;
  headers: IncomingMessage['headers'];
  /** Raw body text ('' when none). */
  bodyText: string;
  /** Body parsed as JSON when it is JSON, else undefined. */
  body: unknown;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** Serialised as JSON unless a string or Buffer. Omit for no body. */
  body?: unknown;
}

export interface FakeRoute {
  method?: string;
  /** Exact path or a pattern tested against the path. */
  path: string | RegExp;
  /** A fixed reply, a list consumed one per request (last one repeats), or a function (which may answer later). */
  reply: FakeReply | FakeReply[] | ((req: LoggedRequest) => FakeReply | Promise<FakeReply>);
}

export interface FakeServer {
  url: string;
  requests: LoggedRequest[];
  /** Replaces the route table (the log is kept). */
  setRoutes(routes: FakeRoute[]): void;
  close(): Promise<void>;
}

/** Reply used when no route matches: a 200 envelope echoing nothing in particular. */
const DEFAULT_REPLY: FakeReply = { status: 200, body: { success: true, message: 'ok', data: null } };

export async function startFakeServer(routes: FakeRoute[] = []): Promise<FakeServer> {
  let table = routes;
  const requests: LoggedRequest[] = [];
  const served = new Map<FakeRoute, number>();

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bodyText = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of url.searchParams) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    let body: unknown;
    try {
      body = bodyText ? JSON.parse(bodyText) : undefined;
    } catch {
      body = undefined;
    }
    const logged: LoggedRequest = { method: req.method ?? 'GET', path: url.pathname, query, headers: req.headers, bodyText, body };
    requests.push(logged);

    const route = table.find(
      (r) => (!r.method || r.method === logged.method) && (typeof r.path === 'string' ? r.path === logged.path : r.path.test(logged.path)),
    );
    let reply = DEFAULT_REPLY;
    if (route) {
      const n = served.get(route) ?? 0;
      served.set(route, n + 1);
      reply =
        typeof route.reply === 'function'
          ? await route.reply(logged)
          : Array.isArray(route.reply)
            ? (route.reply[Math.min(n, route.reply.length - 1)] ?? DEFAULT_REPLY)
            : route.reply;
    }
    const headers: Record<string, string> = { ...reply.headers };
    let payload: string | Buffer | undefined;
    if (reply.body !== undefined) {
      payload = typeof reply.body === 'string' || Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body);
      headers['content-type'] ??= 'application/json';
    }
    res.writeHead(reply.status ?? 200, headers);
    res.end(payload);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setRoutes(next) {
      table = next;
      served.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
