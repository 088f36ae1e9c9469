/**
 * Proxies and TLS end to end: the built CLI against the real local server, through
 * a real forward proxy on 127.0.0.1 (test/support/forward-proxy.ts), and behind an
 * HTTPS front with a self-signed certificate (test/support/tls-front.ts).
 * The base URLs use `pla.corp.test`, a name only the proxy resolves: a request
 * that did not go through the proxy cannot succeed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForwardProxy, startForwardProxy } from '../support/forward-proxy.js';
import { type LocalServer, startLocalServer } from '../support/local-server.js';
import { type TlsFront, startTlsFront } from '../support/tls-front.js';

const CORP_HOST = 'pla.corp.test';
const PASSWORD = 's3cret-proxy-pass';
/** No proxy settings from the machine running the tests. */
const CLEAN: Record<string, string> = { HTTP_PROXY: '', http_proxy: '', HTTPS_PROXY: '', https_proxy: '', NO_PROXY: '', no_proxy: '' };

let server: LocalServer;
let proxy: ForwardProxy;
let authProxy: ForwardProxy;
let front: TlsFront;
let httpPort: string;

beforeAll(async () => {
  server = await startLocalServer();
  httpPort = new URL(server.url).port;
  [proxy, authProxy, front] = await Promise.all([
    startForwardProxy({ hosts: { [CORP_HOST]: '127.0.0.1' } }),
    startForwardProxy({ hosts: { [CORP_HOST]: '127.0.0.1' }, credentials: `ana:${PASSWORD}` }),
    startTlsFront(server.url, [CORP_HOST]),
  ]);
});

afterAll(async () => {
  await Promise.all([proxy?.close(), authProxy?.close(), front?.close()]);
  await server?.stop();
});

/** `pla --base-url <url> determinations list --size 1 -o json` with `env` over a clean environment. */
function list(baseUrl: string, env: Record<string, string>, extra: string[] = []) {
  return server.pla(['--base-url', baseUrl, '--retries', '0', 'determinations', 'list', '--size', '1', '-o', 'json', ...extra], { env: { ...CLEAN, ...env } });
}

/** Requests the proxy received after `run`. */
async function proxied<T>(target: ForwardProxy, run: () => Promise<T>): Promise<{ result: T; seen: ForwardProxy['requests'] }> {
  const before = target.requests.length;
  const result = await run();
  return { result, seen: target.requests.slice(before) };
}

describe('proxies', () => {
  it('fails to reach a corporate host name without a proxy (the name does not resolve here)', async () => {
    const { result, seen } = await proxied(proxy, () => list(`http://${CORP_HOST}:${httpPort}`, {}));
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/cannot reach http:\/\/pla\.corp\.test/);
    expect(seen).toEqual([]);
  });

  it('sends an http base URL through HTTP_PROXY, and through http_proxy', async () => {
    for (const name of ['HTTP_PROXY', 'http_proxy']) {
      const { result, seen } = await proxied(proxy, () => list(`http://${CORP_HOST}:${httpPort}`, { [name]: proxy.url }));
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      expect((JSON.parse(result.stdout) as unknown[]).length).toBe(1);
      expect(seen.map((r) => r.target)).toEqual([`${CORP_HOST}:${httpPort}`]);
    }
  });

  it('sends an https base URL through HTTPS_PROXY and checks the certificate end to end', async () => {
    const base = `https://${CORP_HOST}:${front.port}`;
    const trusted = await proxied(proxy, () => list(base, { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: front.certFile }));
    expect(trusted.result.stderr).toBe('');
    expect(trusted.result.exitCode).toBe(0);
    expect(trusted.seen.map((r) => `${r.method} ${r.target}`)).toEqual([`CONNECT ${CORP_HOST}:${front.port}`]);

    // HTTP_PROXY is for http base URLs only, as in curl: an https one goes direct (and cannot resolve).
    const wrongVariable = await proxied(proxy, () => list(base, { HTTP_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: front.certFile }));
    expect(wrongVariable.result.exitCode).toBe(8);
    expect(wrongVariable.seen).toEqual([]);
  });

  it('NO_PROXY sends matching hosts direct', async () => {
    const direct = await proxied(proxy, () => list(server.url, { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' }));
    expect(direct.result.exitCode).toBe(0);
    expect(direct.seen).toEqual([]);

    // A suffix entry bypasses the proxy for pla.corp.test, which then cannot be resolved: exit 8, proxy untouched.
    const bypassed = await proxied(proxy, () => list(`http://${CORP_HOST}:${httpPort}`, { http_proxy: proxy.url, no_proxy: '.corp.test' }));
    expect(bypassed.result.exitCode).toBe(8);
    expect(bypassed.seen).toEqual([]);
  });

  it('sends credentials in the proxy URL and never prints the password', async () => {
    const base = `http://${CORP_HOST}:${httpPort}`;
    const ok = await proxied(authProxy, () => list(base, { HTTP_PROXY: `http://ana:${PASSWORD}@${authProxy.url.slice('http://'.length)}` }, ['--verbose']));
    expect(ok.result.exitCode).toBe(0);
    expect(ok.seen.map((r) => r.credentials)).toEqual([`ana:${PASSWORD}`]);
    expect(ok.result.stderr).not.toContain(PASSWORD);

    const refused = await list(base, { HTTP_PROXY: `http://ana:wrong-${PASSWORD}@${authProxy.url.slice('http://'.length)}` }, ['--verbose']);
    expect(refused.exitCode).toBe(8);
    expect(refused.stderr).toMatch(/the proxy http:\/\/ana:••••@127\.0\.0\.1:\d+ \(HTTP_PROXY\) refused to connect to http:\/\/pla\.corp\.test:\d+: 407/);
    expect(refused.stderr).toMatch(/hint: the proxy wants credentials/);
    expect(refused.stderr + refused.stdout).not.toContain(PASSWORD);
  });

  it('uses an environment’s own proxy (config set-proxy), masked in config show, and --unset removes it', async () => {
    const base = `http://${CORP_HOST}:${httpPort}`;
    const proxyUrl = `http://ana:${PASSWORD}@${authProxy.url.slice('http://'.length)}`;
    const set = await server.pla(['config', 'set-proxy', proxyUrl, '--env', 'corp'], { env: CLEAN });
    expect(set.exitCode).toBe(0);
    expect(set.stderr).toBe(`corp now goes through http://ana:••••@${authProxy.url.slice('http://'.length)}`);
    await server.pla(['config', 'set-url', base, '--env', 'corp'], { env: CLEAN, reject: true });
    await server.pla(['config', 'set-key', '--env', 'corp'], { env: CLEAN, input: server.adminKey, reject: true });

    // The environment's proxy wins over HTTP_PROXY.
    const { result, seen } = await proxied(authProxy, () =>
      server.pla(['-e', 'corp', 'determinations', 'list', '--size', '1', '-o', 'json'], { env: { ...CLEAN, HTTP_PROXY: proxy.url } }),
    );
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(seen.map((r) => r.credentials)).toEqual([`ana:${PASSWORD}`]);

    const show = await server.pla(['config', 'show', '-o', 'json'], { env: CLEAN });
    expect(show.stdout + show.stderr).not.toContain(PASSWORD);
    expect((JSON.parse(show.stdout) as Array<Record<string, unknown>>).find((row) => row.env === 'corp')).toMatchObject({
      proxy: expect.stringContaining('ana:••••@'),
    });

    const exported = await server.pla(['config', 'export'], { env: CLEAN });
    expect(exported.stdout).not.toContain(PASSWORD);
    expect(exported.stdout).not.toContain(server.adminKey);

    await server.pla(['config', 'set-proxy', '--unset', '--env', 'corp'], { env: CLEAN, reject: true });
    const unset = await proxied(authProxy, () => server.pla(['-e', 'corp', 'determinations', 'list', '--size', '1'], { env: CLEAN }));
    expect(unset.result.exitCode).toBe(8);
    expect(unset.seen).toEqual([]);
  });
});

describe('TLS', () => {
  it('a self-signed certificate is exit 8 with a hint naming set-ca and NODE_EXTRA_CA_CERTS; set-ca makes it pass', async () => {
    await server.pla(['config', 'set-url', front.url, '--env', 'selfsigned'], { env: CLEAN, reject: true });
    await server.pla(['config', 'set-key', '--env', 'selfsigned'], { env: CLEAN, input: server.adminKey, reject: true });
    const run = () => server.pla(['-e', 'selfsigned', 'determinations', 'list', '--size', '1', '-o', 'json'], { env: CLEAN });

    const untrusted = await run();
    expect(untrusted.exitCode).toBe(8);
    expect(untrusted.stderr).toMatch(/^error: certificate not trusted for https:\/\/127\.0\.0\.1:\d+: .*\(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
    expect(untrusted.stderr).toMatch(/hint: .*pla config set-ca ca\.pem --env selfsigned.*NODE_EXTRA_CA_CERTS/);

    const setCa = await server.pla(['config', 'set-ca', front.certFile, '--env', 'selfsigned'], { env: CLEAN });
    expect(setCa.exitCode).toBe(0);
    const trusted = await run();
    expect(trusted.stderr).toBe('');
    expect(trusted.exitCode).toBe(0);
    expect((JSON.parse(trusted.stdout) as unknown[]).length).toBe(1);

    // A CA file that is not PEM is refused when set, not at every later command.
    const notPem = await server.pla(['config', 'set-ca', __filename, '--env', 'selfsigned'], { env: CLEAN });
    expect(notPem.exitCode).toBe(2);
    expect(notPem.stderr).toMatch(/holds no PEM certificate/);
  });
});
