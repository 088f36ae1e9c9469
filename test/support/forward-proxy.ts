/**
 * A small forward proxy on 127.0.0.1 for the proxy tests: CONNECT tunnels (what
 * the client's agent opens for http and https targets alike) and absolute-form
 * requests, with optional Basic credentials. It resolves host names itself from
 * `hosts` (anything else goes to DNS), so a base URL on a name only the proxy
 * knows, like a corporate one, works only when the request goes through it.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  /** `CONNECT` or the method of an absolute-form request. */
  method: string;
  /** `host:port` of a CONNECT, or the absolute URL. */
  target: string;
  /** The Proxy-Authorization header, decoded (`user:password`), when sent. */
  credentials?: string;
}

export interface ForwardProxy {
  url: string;
  /** Every request that reached the proxy, in order. */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

export interface ForwardProxyOptions {
  /** Host names the proxy resolves itself, e.g. `{ 'pla.corp.test': '127.0.0.1' }`. */
  hosts?: Record<string, string>;
  /** `user:password` the proxy requires; others get 407. */
  credentials?: string;
}

function decodeCredentials(req: IncomingMessage): string | undefined {
  const header = req.headers['proxy-authorization'];
  const match = typeof header === 'string' ? /^Basic (.+)$/i.exec(header) : null;
  return match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : undefined;
}

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const resolveHost = (host: string) => options.hosts?.[host] ?? host;
  const allowed = (credentials: string | undefined) => options.credentials === undefined || credentials === options.credentials;

  const server: Server = createServer((req, res) => {
    const credentials = decodeCredentials(req);
    requests.push({ method: req.method ?? '', target: req.url ?? '', ...(credentials ? { credentials } : {}) });
    if (!allowed(credentials)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      { host: resolveHost(target.hostname), port: target.port || 80, path: target.pathname + target.search, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const credentials = decodeCredentials(req);
    requests.push({ method: 'CONNECT', target: req.url ?? '', ...(credentials ? { credentials } : {}) });
    if (!allowed(credentials)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host = '', port = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), resolveHost(host), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
