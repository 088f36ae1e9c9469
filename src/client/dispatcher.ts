/**
 * The undici dispatcher the transport sends through, one per client: a keep-alive
 * `Agent`; undici's `EnvHttpProxyAgent` when HTTP(S)_PROXY applies, which also
 * reads NO_PROXY; its `ProxyAgent` for the environment's configured proxy. Both
 * tunnel with CONNECT to http and https services alike, so the proxy sees the
 * service's host and port, never a request: the key is never sent to it.
 * Credentials in a proxy URL become a `Proxy-Authorization` on the CONNECT
 * (undici does this). The environment's CA file is trusted for the service and
 * for an https proxy.
 */
import { isIP } from 'node:net';
import { Agent, type buildConnector, type Dispatcher, EnvHttpProxyAgent, Pool, ProxyAgent } from 'undici';
import { bypassesProxy, variable } from './proxy.js';

export interface DispatcherSettings {
  /** The service's origin: its scheme says which proxy variable applies. */
  origin: string;
  /** Connect timeout, to the service or to the proxy. */
  timeoutMs: number;
  /** The environment's configured proxy URL, used unless NO_PROXY names the service. */
  proxy?: string;
  /** The variables HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read from (the run's, not this process's). */
  variables: Readonly<Record<string, string | undefined>>;
  /** PEM text of certificate authorities trusted besides Node's own. */
  ca?: string;
}

/**
 * Idle keep-alive connections are closed after this long, whatever the server's
 * `Keep-Alive: timeout` says. A request written on a connection the server is
 * closing fails with a reset, which for a create leaves its outcome unknown (it
 * is not repeated once sent); servers close idle connections after 5 s (Node) to
 * 60 s or more, so a connection idle under a second is safe, and back-to-back
 * calls (page walks, bulk batches) still share one. Under a second, undici times
 * it with Node's own timer, not its coarse one.
 */
export const IDLE_CONNECTION_MS = 1000;

/**
 * TLS options for a certificate. Giving `ca` replaces Node's list of trusted roots,
 * so the roots come along: the CA file adds to them, as NODE_EXTRA_CA_CERTS does
 * (whose certificates Node keeps in its default store, used when no `ca` is given).
 */
function tlsOptions(ca: string | undefined): { ca?: string[] } {
  if (ca === undefined) return {};
  const { rootCertificates } = process.getBuiltinModule('node:tls');
  return { ca: [...rootCertificates, ca] };
}

/**
 * The pool to the proxy (ProxyAgent's documented `clientFactory`), its TLS connections
 * opened without an IP address as server name: undici 7 names an https proxy's host
 * as the TLS server name even when it is an address (`https://10.0.0.5:3128`), which
 * RFC 6066 forbids and Node 26 refuses (ERR_INVALID_ARG_VALUE). Without a name, undici
 * sends none, as for a service addressed by IP.
 */
function proxyPool(origin: URL, options: object): Dispatcher {
  const { connect } = options as { connect?: buildConnector.connector };
  if (typeof connect !== 'function') return new Pool(origin, options);
  return new Pool(origin, {
    ...options,
    connect: (opts, callback) => connect({ ...opts, ...(opts.servername && isIP(opts.servername) ? { servername: undefined } : {}) }, callback),
  });
}

/** The dispatcher for `settings.origin` (see the module comment). */
export function createDispatcher(settings: DispatcherSettings): Dispatcher {
  const tls = { timeout: settings.timeoutMs, ...tlsOptions(settings.ca) };
  const pool = { keepAliveTimeout: IDLE_CONNECTION_MS, keepAliveMaxTimeout: IDLE_CONNECTION_MS, connect: tls };
  const proxied = { ...pool, requestTls: tls, proxyTls: tls, clientFactory: proxyPool };
  const { variables } = settings;
  if (settings.proxy && !bypassesProxy(new URL(settings.origin), variables)) return new ProxyAgent({ ...proxied, uri: settings.proxy });
  const secure = new URL(settings.origin).protocol === 'https:';
  const proxy = variable(variables, secure ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'])?.url;
  if (!proxy) return new Agent(pool);
  // Only the variable of the service's scheme, as curl: undici would send https through HTTP_PROXY when HTTPS_PROXY is unset.
  // Empty strings, not undefined: undici would read this process's variables instead of the run's.
  return new EnvHttpProxyAgent({
    ...proxied,
    httpProxy: secure ? '' : proxy,
    httpsProxy: secure ? proxy : '',
    noProxy: variable(variables, ['no_proxy', 'NO_PROXY'])?.url ?? '',
  });
}
