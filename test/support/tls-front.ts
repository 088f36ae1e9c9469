/**
 * An HTTPS front for the local server, with a self-signed certificate made by
 * `openssl` for the test (names: localhost, 127.0.0.1 and any extra names given).
 * It terminates TLS and passes each request on to the local server's http URL.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsFront {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** PEM file of the self-signed certificate (its own CA). */
  certFile: string;
  close(): Promise<void>;
}

/** Makes a self-signed certificate and key in `dir` with openssl; returns their paths. */
export function selfSigned(dir: string, names: readonly string[]): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const san = ['DNS:localhost', 'IP:127.0.0.1', ...names.map((n) => `DNS:${n}`)].join(',');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '365',
      '-subj',
      '/CN=pla test',
      '-addext',
      `subjectAltName=${san}`,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** Starts the front; `target` is the local server's http URL. */
export async function startTlsFront(target: string, names: readonly string[] = []): Promise<TlsFront> {
  const dir = await mkdtemp(join(tmpdir(), 'pla-tls-'));
  const files = selfSigned(dir, names);
  const upstream = new URL(target);
  const server: Server = createServer({ cert: await readFile(files.cert), key: await readFile(files.key) }, (req, res) => {
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    certFile: files.cert,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
