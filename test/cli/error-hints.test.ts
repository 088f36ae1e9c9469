/**
 * Hints are the CLI's: the client raises typed errors with the facts, and
 * report-error.ts adds what a person should do. Unit checks of the mapping, then
 * the built CLI end to end (a wrong key on the real local server, nothing listening).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatError } from '../../src/cli/report-error.js';
import { AuthError, NetworkError, NotFoundError, RateLimitError, RejectedError, ServerError, UsageError } from '../../src/errors.js';
import { type LocalServer, startLocalServer } from '../support/local-server.js';
import { pla, tempDir } from './support.js';

const request = { method: 'GET', path: '/api/x/1', origin: 'http://127.0.0.1:1', env: 'qa' };
const text = (error: unknown) => formatError(error, { verbose: false, secrets: [] });

describe('hints added where errors are reported', () => {
  it.each([
    [new AuthError('401 Unauthorized', 401, undefined, { request }), 'hint: check the key: `pla config show`, `pla config set-key --env qa`'],
    [new AuthError('403 Forbidden', 403, undefined, { request }), 'hint: the key lacks the permission for this operation'],
    [new NotFoundError('404 Not Found', 404, undefined, { request }), 'hint: check the id'],
    [new RateLimitError('429', 429), 'hint: the service is rate limiting this key'],
    [new ServerError('500', 500), 'hint: the service failed: try again later'],
    [new RejectedError('400', 400), 'hint: fix the request'],
    [new NetworkError('cannot reach', { request }), 'hint: is the service up? for the local one: `pla server start`'],
    [new NetworkError('no answer', { timedOut: true, request }), 'hint: the service is slow or unreachable: try again, or allow more time with --timeout'],
  ])('%s', (error, hint) => {
    const [first, second, ...rest] = text(error).trimEnd().split('\n');
    expect(first).toBe(`error: ${error.message}`);
    expect(second).toContain(hint);
    expect(rest).toEqual([]);
  });

  it('keeps a hint the CLI side gave an error itself, and says <env> when the environment is unknown', () => {
    expect(text(new UsageError('no ids given', { hint: 'pass ids' }))).toBe('error: no ids given\nhint: pass ids\n');
    expect(text(new AuthError('401', 401))).toContain('--env <env>');
  });
});

describe('hints end to end', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({ seed: false });
  }, 60_000);
  afterAll(() => server?.stop());

  it('a wrong key on the local server: exit 3 and how to set one for that environment', async () => {
    const saved = await server.pla(['config', 'set-key', '--env', 'local'], { input: 'not-the-key-0000\n' });
    expect(saved.exitCode, saved.stderr).toBe(0);
    const result = await server.pla(['det', 'list', '-e', 'local', '--retries', '0']);
    expect(result.exitCode).toBe(3);
    expect(String(result.stderr)).toMatch(/^error: 401 .*\nhint: check the key: `pla config show`, `pla config set-key --env local`$/m);
    // The key sent came from elsewhere: the hint says where, not the config.
    const flagged = await server.pla(['det', 'list', '-e', 'local', '--api-key', 'not-the-key-0001', '--retries', '0']);
    expect(String(flagged.stderr)).toMatch(/^hint: check the key given with --api-key$/m);
    const fromEnv = await server.pla(['det', 'list', '-e', 'local', '--retries', '0'], { env: { PLA_API_KEY: 'not-the-key-0002' } });
    expect(fromEnv.exitCode).toBe(3);
    expect(String(fromEnv.stderr)).toMatch(
      /^hint: check the key: PLA_API_KEY is set and wins over the config; unset it to use the key of `pla config set-key --env local`$/m,
    );
    expect(String(fromEnv.stderr)).not.toContain('not-the-key-0002');
  });

  it('nothing listening: exit 8 and to start the local server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const config = await tempDir();
    try {
      const result = await pla(['det', 'get', '1', '--retries', '0'], {
        configDir: config.path,
        env: { PLA_BASE_URL: `http://127.0.0.1:${port}`, PLA_API_KEY: 'some-key-000000' },
      });
      expect(result.exitCode).toBe(8);
      expect(result.stderr).toMatch(/^error: cannot reach .*ECONNREFUSED.*\nhint: no server listens there: start one with `pla server start`/);
    } finally {
      await config.remove();
    }
  });
});
