/** Failures: one line on stderr (plus a hint), and the exit code of the failure's class. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DETERMINATIONS_PREFIX as D } from '../../src/contract/operations.js';
import { type FakeServer, startFakeServer } from '../support/fake-server.js';
import { pla, startContractServer, tempDir } from './support.js';

let server: FakeServer;
let contract: FakeServer;
let config: Awaited<ReturnType<typeof tempDir>>;

const problem = (status: number, detail: string) => ({
  status,
  headers: { 'content-type': 'application/problem+json' },
  body: { type: 'about:blank', title: `status ${status}`, status, detail, errors: [{ path: 'name', message: 'required' }] },
});

beforeAll(async () => {
  [server, contract, config] = await Promise.all([
    startFakeServer([
      { path: /\/(\d{3})$/, reply: (req) => problem(Number(/(\d{3})$/.exec(req.path)?.[1]), `failed with ${req.path.slice(-3)}`) },
      { method: 'POST', path: `${D}/bulk`, reply: problem(400, 'bad batch') },
    ]),
    startContractServer(),
    tempDir(),
  ]);
});

afterAll(async () => {
  await Promise.all([server.close(), contract.close(), config.remove()]);
});

const run = (args: string[], on = server) => pla([...args, '--retries', '0'], { server: on, configDir: config.path });

describe('errors', () => {
  it.each([
    [404, 4],
    [401, 3],
    [403, 3],
    [400, 5],
    [409, 5],
    [429, 6],
    [500, 7],
  ])('answers %i with exit code %i and one error line', async (status, code) => {
    const out = await run(['det', 'get', String(status)]);
    expect(out.exitCode).toBe(code);
    expect(out.stdout).toBe('');
    const lines = out.stderr.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^error: .*${status}`));
    expect(lines.length).toBeLessThanOrEqual(2);
    if (lines[1]) expect(lines[1]).toMatch(/^hint: /);
  });

  it('shows the full problem body with --verbose', async () => {
    const out = await run(['det', 'get', '400', '--verbose']);
    expect(out.stderr).toContain('"detail": "failed with 400"');
    expect(out.stderr).toContain('"path": "name"');
  });

  it('never shows a stored key a service echoes back, not even in the --verbose body or a success:false envelope', async () => {
    const key = 'stored-key-from-config-5678';
    const own = await tempDir();
    const echo = await startFakeServer([
      {
        path: `${D}/1`,
        reply: (req) => ({
          status: 400,
          headers: { 'content-type': 'application/problem+json' },
          body: { detail: `bad key ${String(req.headers['x-api-key'])}`, echo: req.headers },
        }),
      },
      { path: `${D}/2`, reply: (req) => ({ status: 200, body: { success: false, message: `key ${String(req.headers['x-api-key'])} disabled`, data: null } }) },
    ]);
    try {
      const stored = await pla(['config', 'set-key'], { configDir: own.path, input: key });
      expect(stored.exitCode).toBe(0);
      // No PLA_API_KEY and no --api-key: the key comes from the config file only.
      const runs = await Promise.all(
        ['1', '2'].map((id) => pla(['det', 'get', id, '--verbose', '--retries', '0'], { configDir: own.path, env: { PLA_BASE_URL: echo.url } })),
      );
      expect(echo.requests.every((r) => r.headers['x-api-key'] === key)).toBe(true);
      for (const out of runs) {
        expect(out.exitCode).toBe(5);
        expect(out.stderr).toContain('••••5678');
        expect(`${out.stdout}${out.stderr}`).not.toContain(key);
      }
    } finally {
      await Promise.all([echo.close(), own.remove()]);
    }
  });

  it('several ids, one call each: a refused key or a server failure exits with its own code, not as a partial failure', async () => {
    const [auth, server5xx, refused] = await Promise.all([
      run(['det', 'get', '401', '403']),
      run(['det', 'get', '500', '503']),
      run(['det', 'get', '404', '400']),
    ]);
    expect(auth.exitCode).toBe(3);
    expect(auth.stderr).toMatch(/^error: 40[13] /m);
    expect(server5xx.exitCode).toBe(7);
    expect(refused.exitCode).toBe(9);
  });

  it('exits 8 when the service cannot be reached', async () => {
    const out = await pla(['det', 'get', '7', '--retries', '0'], {
      configDir: config.path,
      env: { PLA_BASE_URL: 'http://127.0.0.1:9', PLA_API_KEY: 'k-0123456789ab' },
    });
    expect(out.exitCode).toBe(8);
    expect(out.stderr).toMatch(/^error: /);
  });

  it('exits 9 when a bulk run partly fails', async () => {
    const out = await run(['det', 'create', '--data', JSON.stringify([{ name: 'a' }, { name: 'b' }])]);
    expect(out.exitCode).toBe(9);
    expect(out.stderr).toMatch(/failed 2/);
  });

  it('exits 2 on usage errors, sending nothing', async () => {
    const outs = await Promise.all([
      run(['det', 'frobnicate'], contract),
      run(['nonsense'], contract),
      run(['det', 'list', '--size', 'x'], contract),
      run(['det', 'list', '--no-such-flag'], contract),
      run(['det', 'create', '--data', '{not json'], contract),
      run(['det', 'get', 'abc'], contract),
      run(['det', 'update', '1e3', '--data', '{"x": 1}'], contract),
      run(['det', 'decommission', '--modified-before', 'yesterday', '--yes'], contract),
      run(['det', 'create'], contract),
      run(['tasks', 'search', '--filter-file', 'no-such-filter.json'], contract),
      run(['api', 'POST', '/api/notifications', '--file', 'no-such-body.json'], contract),
    ]);
    for (const out of outs) {
      expect(out.exitCode).toBe(2);
      expect(out.stderr).toMatch(/error: /);
      expect(out.stderr).not.toContain('looks like a bug');
    }
    expect(contract.requests).toEqual([]);
  });
});
