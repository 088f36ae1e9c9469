/**
 * Which forward proxy a request to the service goes through, decided the way curl,
 * npm and gh decide: the environment's configured proxy, else `https_proxy` /
 * `HTTPS_PROXY` for an https base URL and `http_proxy` / `HTTP_PROXY` for an http
 * one (lower case first, as curl reads them); `no_proxy` / `NO_PROXY` (host names,
 * `.suffix` or `*.suffix`, optional `:port`, or `*`) sends matching hosts direct.
 * The client talks to one origin, so the choice is made once: undici's proxy
 * agents route by the same variables (src/client/dispatcher.ts), and doctor and
 * error messages show this choice.
 */

/** The proxy in effect and where it was set, for messages (the URL may hold a password: mask it). */
export interface ProxyChoice {
  url: string;
  /** `config` or the variable's name, e.g. `HTTPS_PROXY`. */
  source: string;
}

type Env = Record<string, string | undefined>;

/** The first non-empty variable of `names`, with its name. */
export function variable(env: Env, names: readonly string[]): ProxyChoice | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { url: value, source: name };
  }
  return undefined;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** True when `no_proxy` says to reach `target` directly. */
export function bypassesProxy(target: URL, env: Env): boolean {
  const list = variable(env, ['no_proxy', 'NO_PROXY'])?.url ?? '';
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  for (const raw of list.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const withPort = /^(.+):(\d+)$/.exec(entry);
    if (withPort && Number(withPort[2]) !== port) continue;
    const name = (withPort ? (withPort[1] as string) : entry).replace(/^\*?\./, '').replace(/^\[|\]$/g, '');
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The proxy for requests to `baseUrl`, or undefined to connect directly. */
export function chooseProxy(baseUrl: string, configured: string | undefined, env: Env): ProxyChoice | undefined {
  const target = new URL(baseUrl);
  if (bypassesProxy(target, env)) return undefined;
  if (configured) return { url: configured, source: 'config' };
  const names = target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  return variable(env, names);
}

/** The proxy answered the CONNECT with another status than 200 (407: it wants credentials). */
export class ProxyRefusal extends Error {
  readonly code = 'PLA_PROXY_REFUSED';
  constructor(
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(`the proxy answered the CONNECT with ${status}`, options);
    this.name = 'ProxyRefusal';
  }
}

/**
 * The status of a CONNECT the proxy refused, from undici's error for it: undici
 * says it only in the message (`Proxy response (407) !== 200 when HTTP Tunneling`).
 */
export function proxyRefusal(error: Error): ProxyRefusal | undefined {
  const status = /^Proxy response \((\d{3})\)/.exec(error.message)?.[1];
  return status === undefined ? undefined : new ProxyRefusal(Number(status), { cause: error });
}
