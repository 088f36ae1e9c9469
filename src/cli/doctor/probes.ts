/**
 * The network steps `pla doctor` tries one at a time, so a failure names the step:
 * resolving a name, opening a TCP connection, a TLS handshake (directly or through
 * a proxy's CONNECT tunnel) and reading the certificate.
 */
import { lookup } from 'node:dns/promises';
import { request } from 'node:http';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates, type PeerCertificate } from 'node:tls';

/** Addresses of `host` (what the system resolver answers, as the client would connect). */
export async function resolveHost(host: string): Promise<string[]> {
  const answers = await lookup(host.replace(/^\[|\]$/g, ''), { all: true });
  return answers.map((a) => a.address);
}

/** Opens and closes a TCP connection; resolves with the milliseconds it took. */
export function tcpProbe(host: string, port: number, timeoutMs: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host: host.replace(/^\[|\]$/g, ''), port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve(Math.round(performance.now() - started));
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(Object.assign(new Error(`no connection within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' }));
    });
    socket.once('error', reject);
  });
}

/** A CONNECT tunnel to `target` (`host:port`) through an http proxy; the caller owns the socket. */
function tunnel(proxyUrl: string, target: string, timeoutMs: number): Promise<Socket> {
  const proxy = new URL(proxyUrl);
  const headers: Record<string, string> = { host: target };
  if (proxy.username) {
    headers['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: proxy.hostname, port: Number(proxy.port) || 80, method: 'CONNECT', path: target, headers, timeout: timeoutMs });
    req.once('connect', (res, socket) => {
      if (res.statusCode === 200) resolve(socket);
      else {
        socket.destroy();
        reject(new Error(`the proxy answered ${res.statusCode ?? '?'} to CONNECT ${target}`));
      }
    });
    req.once('timeout', () => req.destroy(Object.assign(new Error('the proxy did not answer'), { code: 'ETIMEDOUT' })));
    req.once('error', reject);
    req.end();
  });
}

export interface TlsFacts {
  /** Whether the certificate chain is trusted (with the CA file, when given). */
  trusted: boolean;
  /** OpenSSL's reason when not trusted, e.g. DEPTH_ZERO_SELF_SIGNED_CERT. */
  reason?: string;
  issuer: string;
  subject: string;
  validTo: Date;
  protocol: string;
}

function name(fields: PeerCertificate['issuer'] | undefined): string {
  if (!fields) return '?';
  const value = fields.CN ?? fields.O ?? Object.values(fields).join(', ');
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A TLS handshake with the service (through `proxyUrl` when given), reporting the certificate. */
export async function tlsProbe(host: string, port: number, options: { ca?: string; proxyUrl?: string; timeoutMs: number }): Promise<TlsFacts> {
  const socket = options.proxyUrl ? await tunnel(options.proxyUrl, `${host}:${port}`, options.timeoutMs) : undefined;
  const servername = /^[\d.]+$|^\[/.test(host) ? undefined : host;
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({
      ...(socket ? { socket } : { host, port }),
      ...(servername ? { servername } : {}),
      ...(options.ca !== undefined ? { ca: [...rootCertificates, options.ca] } : {}),
      // Checked below: the point is to report why a certificate is not trusted.
      rejectUnauthorized: false,
      timeout: options.timeoutMs,
    });
    tls.once('secureConnect', () => {
      const cert = tls.getPeerCertificate();
      const error = tls.authorizationError as (Error & { code?: string }) | string | null;
      resolve({
        trusted: tls.authorized,
        ...(error ? { reason: typeof error === 'string' ? error : (error.code ?? error.message) } : {}),
        issuer: name(cert.issuer),
        subject: name(cert.subject),
        validTo: new Date(cert.valid_to),
        protocol: tls.getProtocol() ?? '?',
      });
      tls.destroy();
    });
    tls.once('timeout', () => tls.destroy(Object.assign(new Error('no TLS handshake'), { code: 'ETIMEDOUT' })));
    tls.once('error', reject);
  });
}
