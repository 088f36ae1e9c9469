/**
 * The undici dispatcher the transport sends through: a plain Agent, or undici's
 * ProxyAgent when a proxy is in effect (src/client/proxy.ts), with the
 * environment's extra certificate authorities when it has a CA file.
 */
import { Agent, type Dispatcher, ProxyAgent } from 'undici';
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

/** A plain Agent when no proxy is in effect, else a ProxyAgent. */
export function createDispatcher(settings: DispatcherSettings): Dispatcher {
  const tls = tlsOptions(settings.ca);
  if (!settings.proxy) return new Agent({ connect: { timeout: settings.timeoutMs, ...tls } });
  return new ProxyAgent({
    uri: settings.proxy.url,
    // Credentials in the proxy URL become a Proxy-Authorization header (undici does this).
    proxyTls: { timeout: settings.timeoutMs },
    requestTls: { timeout: settings.timeoutMs, ...tls },
  });
}
