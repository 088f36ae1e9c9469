/**
 * The undici dispatcher the transport sends through: a plain Agent, or undici's
 * ProxyAgent when a proxy is in effect (src/client/proxy.ts), with the
 * environment's extra certificate authorities when it has a CA file. The proxy
 * agent is imported only when used: it comes with undici's whole index (fetch,
 * pools, the SOCKS client), which a direct `get` should not pay for at start-up.
 */
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import type { ProxyChoice } from './proxy.js';

export interface DispatcherSettings {
  /** Connect timeout, to the service or to the proxy. */
  timeoutMs: number;
  proxy?: ProxyChoice;
  /** PEM text of certificate authorities trusted besides Node's own. */
  ca?: string;
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

/** A plain Agent when no proxy is in effect (synchronously), else a promise of a ProxyAgent. */
export function createDispatcher(settings: DispatcherSettings): Dispatcher | Promise<Dispatcher> {
  const tls = tlsOptions(settings.ca);
  if (!settings.proxy) return new Agent({ connect: { timeout: settings.timeoutMs, ...tls } });
  const uri = settings.proxy.url;
  // The package's index, not lib/dispatcher/proxy-agent.js: the index also gives
  // dispatchers their `connect()`, which the proxy agent opens its tunnels with.
  // Its default export is the CommonJS exports object, both bundled and not.
  return import('undici').then(
    ({ default: { ProxyAgent } }) =>
      new ProxyAgent({
        uri,
        // Credentials in the proxy URL become a Proxy-Authorization header (undici does this).
        proxyTls: { timeout: settings.timeoutMs },
        requestTls: { timeout: settings.timeoutMs, ...tls },
      }),
  );
}
