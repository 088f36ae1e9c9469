/**
 * `pla doctor` end to end: the built CLI against the real local server, an HTTPS
 * front with a self-signed certificate, and a forward proxy with credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForwardProxy, startForwardProxy } from '../support/forward-proxy.js';
import { type LocalServer, startLocalServer } from '../support/local-server.js';
import { type TlsFront, startTlsFront } from '../support/tls-front.js';

const CLEAN: Record<string, string> = { HTTP_PROXY: '', http_proxy: '', HTTPS_PROXY: '', https_proxy: '', NO_PROXY: '', no_proxy: '' };
const CORP_HOST = 'pla.corp.test';
const PASSWORD = 'doctor-proxy-pass';

interface CheckRow {
  check: string;
  status: 'ok' | 'fail' | 'skip';
  detail: string;
  hint?: string;
}

let server: LocalServer;
let front: TlsFront;
let proxy: ForwardProxy;

beforeAll(async () => {
  server = await startLocalServer();
  [front, proxy] = await Promise.all([
    startTlsFront(server.url, [CORP_HOST]),
    startForwardProxy({ hosts: { [CORP_HOST]: '127.0.0.1' }, credentials: `ana:${PASSWORD}` }),
  ]);
  for (const env of ['tls', 'corp']) await server.pla(['config', 'set-key', '--env', env], { env: CLEAN, input: server.adminKey, reject: true });
  await server.pla(['config', 'set-url', front.url, '--env', 'tls'], { env: CLEAN, reject: true });
  await server.pla(['config', 'set-url', `https://${CORP_HOST}:${front.port}`, '--env', 'corp'], { env: CLEAN, reject: true });
  await server.pla(['config', 'set-ca', front.certFile, '--env', 'corp'], { env: CLEAN, reject: true });
});

afterAll(async () => {
  await Promise.all([front?.close(), proxy?.close()]);
  await server?.stop();
});

async function doctor(args: string[], env: Record<string, string> = {}) {
  const result = await server.pla([...args, 'doctor', '-o', 'json'], { env: { ...CLEAN, ...env } });
  const checks = JSON.parse(result.stdout) as CheckRow[];
  return { result, checks, byName: (name: string) => checks.find((c) => c.check === name) };
}

describe('pla doctor', () => {
  it('passes every check against the local server, and says where URL and key come from', async () => {
    const { result, checks, byName } = await doctor([]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(checks.map((c) => c.check)).toEqual([
      'config file',
      'environment',
      'base URL',
      'API key',
      'proxy',
      'DNS',
      'TCP',
      'TLS',
      'service',
      'key accepted',
      'clock',
      'latency',
      'wire profile',
    ]);
    expect(checks.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(byName('config file')?.detail).toMatch(/config\.json \(mode 0600\)$/);
    expect(byName('environment')?.detail).toBe('local (from the current environment (pla config use))');
    expect(byName('base URL')?.detail).toBe(`${server.url} (from config)`);
    expect(byName('API key')?.detail).toMatch(/^••••.{4} \(from config\)$/);
    expect(byName('proxy')?.detail).toBe('none: connecting directly');

    const human = await server.pla(['doctor', '-o', 'table'], { env: CLEAN });
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toMatch(/^✓ config file {2,}/m);
    expect(human.stdout).toMatch(/^✓ key accepted {2,}an authenticated read succeeded$/m);
  });

  it('a refused key is ✗ with a hint and exit 3; the service itself answered', async () => {
    const { result, byName } = await doctor([], { PLA_API_KEY: 'not-a-real-key-0000' });
    expect(result.exitCode).toBe(3);
    expect(byName('API key')?.detail).toBe('••••0000 (from variable)');
    expect(byName('service')).toMatchObject({ status: 'ok', detail: 'answered 401' });
    expect(byName('key accepted')).toMatchObject({ status: 'fail', hint: expect.stringContaining('pla config set-key --env local') });
    expect(result.stderr).toMatch(/^error: 1 of 13 checks failed \(first: key accepted\)/);
  });

  it('an untrusted certificate is a ✗ TLS naming issuer and reason, exit 8; set-ca fixes it', async () => {
    const untrusted = await doctor(['-e', 'tls']);
    expect(untrusted.result.exitCode).toBe(8);
    expect(untrusted.byName('TLS')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        /^certificate not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\): TLSv1\.[23], issued by pla test to pla test, expires \d{4}-\d\d-\d\d \(\d+ days\)$/,
      ),
    });
    expect(untrusted.byName('TLS')?.hint).toMatch(/pla config set-ca ca\.pem --env tls, or NODE_EXTRA_CA_CERTS=ca\.pem/);

    await server.pla(['config', 'set-ca', front.certFile, '--env', 'tls'], { env: CLEAN, reject: true });
    const trusted = await doctor(['-e', 'tls']);
    expect(trusted.result.exitCode, trusted.result.stdout).toBe(0);
    expect(trusted.byName('TLS')?.detail).toMatch(/issued by pla test/);
  });

  it('goes through the proxy (DNS and TCP to the proxy, TLS through its tunnel) and never shows its password', async () => {
    const proxyUrl = `http://ana:${PASSWORD}@${proxy.url.slice('http://'.length)}`;
    const before = proxy.requests.length;
    const { result, checks, byName } = await doctor(['-e', 'corp'], { HTTPS_PROXY: proxyUrl });
    expect(result.stderr, result.stdout).toBe('');
    expect(result.exitCode).toBe(0);
    expect(byName('proxy')?.detail).toBe(`http://ana:••••@${proxy.url.slice('http://'.length)} (from HTTPS_PROXY); the proxy resolves ${CORP_HOST}`);
    expect(byName('TCP')?.detail).toMatch(/^proxy 127\.0\.0\.1:\d+ accepted a connection/);
    expect(JSON.stringify(checks)).not.toContain(PASSWORD);
    // One tunnel for the TLS check, then tunnels for the authenticated reads (the read and the wire profile's probes): all to the service.
    const tunnels = proxy.requests.slice(before).map((r) => `${r.method} ${r.target}`);
    expect(tunnels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(tunnels)).toEqual(new Set([`CONNECT ${CORP_HOST}:${front.port}`]));
  });

  it('a service nobody listens on is ✗ TCP, the rest not checked, exit 8', async () => {
    const { result, byName } = await doctor(['--base-url', 'http://127.0.0.1:1']);
    expect(result.exitCode).toBe(8);
    expect(byName('TCP')).toMatchObject({ status: 'fail', detail: expect.stringContaining('ECONNREFUSED') });
    expect(byName('service')?.status).toBe('fail');
    expect(byName('clock')?.status).toBe('skip');
  });
});
