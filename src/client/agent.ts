/**
 * The connection pool the transport sends through: one keep-alive `http.Agent`
 * (or `https.Agent`) per client, with the environment's extra certificate
 * authorities when it has a CA file, and, when a proxy is in effect
 * (src/client/proxy.ts), a CONNECT tunnel through it for every connection, to
 * http and https services alike: the proxy sees the service's host and port,
 * never a request, so the key is never sent to it. All of it is Node's public
 * `Agent` API (`createConnection` with a callback, `freeSockets`).
 */
import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { ProxyRefusal, type ProxyChoice } from './proxy.js';

export interface AgentSettings {
  /** The service's origin: its scheme says http or https. */
  origin: string;
  /** Connect timeout to the proxy, for its CONNECT answer. */
  timeoutMs: number;
  proxy?: ProxyChoice;
  /** PEM text of certificate authorities trusted besides Node's own. */
  ca?: string;
}

/**
 * Idle keep-alive sockets are closed after this long. Servers close theirs after
 * a few seconds (Node's own after 5 s); a request written on a socket the server
 * is closing fails with a reset that, for a create, leaves its outcome unknown.
 */
export const IDLE_SOCKET_MS = 4000;

/**
 * A call that must not be repeated once sent goes out only on a new socket or one
 * that answered this recently (src/client/transport.ts drops older ones first):
 * after a Retry-After pause, the server may be closing the one left in the pool.
 */
export const FRESH_SOCKET_MS = 1000;

/** When each socket last finished an answer, for `dropStaleSockets`. */
const lastAnswered = new WeakMap<Socket, number>();

/** Notes that `socket` just finished an answer (it goes back to the pool fresh). */
export function noteAnswered(socket: Socket | null): void {
  if (socket) lastAnswered.set(socket, performance.now());
}

/**
 * Closes the pool's idle sockets that finished their last answer more than
 * FRESH_SOCKET_MS ago, and waits until the agent has let go of them, so that the
 * next request gets a fresh or recently used socket.
 */
export async function dropStaleSockets(agent: Agent): Promise<void> {
  const now = performance.now();
  const stale = Object.values(agent.freeSockets)
    .flat()
    .filter((socket): socket is Socket => socket !== undefined && now - (lastAnswered.get(socket) ?? 0) > FRESH_SOCKET_MS);
  await Promise.all(
    stale.map(
      (socket) =>
        new Promise<void>((resolve) => {
          socket.once('close', () => resolve());
          socket.destroy();
        }),
    ),
  );
}

/**
 * TLS options for the service's certificate. Giving `ca` replaces Node's list of
 * trusted roots, so the roots come along: the CA file adds to them, as
 * NODE_EXTRA_CA_CERTS does (whose certificates Node keeps in its default store,
 * used when no `ca` is given).
 */
function tlsOptions(ca: string | undefined): { ca?: string[] } {
  if (ca === undefined) return {};
  const { rootCertificates } = process.getBuiltinModule('node:tls');
  return { ca: [...rootCertificates, ca] };
}

/** `Proxy-Authorization` for credentials in the proxy URL (`http://user:pass@proxy:3128`), as curl sends it. */
function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

type Connected = (error: Error | null, socket?: Socket) => void;

/**
 * A `createConnection` that opens a CONNECT tunnel through `proxy` (an http or
 * https URL) and, for an https service, runs TLS over it.
 */
function tunnelThrough(proxy: URL, settings: AgentSettings, secure: boolean) {
  const tls = tlsOptions(settings.ca);
  return (options: ConnectionOptions, connected: Connected): undefined => {
    const host = String(options.host ?? '');
    const target = `${host.includes(':') ? `[${host}]` : host}:${String(options.port)}`;
    const send = proxy.protocol === 'https:' ? process.getBuiltinModule('node:https').request : httpRequest;
    const connect: ClientRequest = send({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: target,
      headers: { host: target, ...proxyAuthorization(proxy) },
      agent: false,
      timeout: settings.timeoutMs,
      ...tls,
    });
    connect.once('timeout', () =>
      connect.destroy(Object.assign(new Error(`the proxy did not answer within ${settings.timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })),
    );
    connect.once('error', (error) => connected(error));
    connect.once('connect', (answer: IncomingMessage, socket: Socket, head: Buffer) => {
      connect.setTimeout(0);
      if (answer.statusCode !== 200) {
        socket.destroy();
        connected(new ProxyRefusal(answer.statusCode ?? 0));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      if (!secure) {
        connected(null, socket);
        return;
      }
      const servername = options.servername || (/^[\d.]+$|:/.test(host) ? undefined : host);
      connected(null, process.getBuiltinModule('node:tls').connect({ ...options, ...tls, socket, ...(servername ? { servername } : {}) }));
    });
    connect.end();
    return undefined;
  };
}

/** The agent for `settings.origin`: keep-alive, extra CAs, a tunnel through the proxy when there is one. */
export function createAgent(settings: AgentSettings): Agent {
  const secure = new URL(settings.origin).protocol === 'https:';
  const pool = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
  const agent = secure ? new (process.getBuiltinModule('node:https').Agent)({ ...pool, ...tlsOptions(settings.ca) }) : new Agent(pool);
  if (settings.proxy) {
    // Node's Agent documents `createConnection(options, callback)` as the way to supply a socket made asynchronously.
    Object.assign(agent, { createConnection: tunnelThrough(new URL(settings.proxy.url), settings, secure) });
  }
  return agent;
}
