/**
 * `pla server start` on what another process holds: a data folder another server
 * has, or a port in use. Each is exit 10 ("in use", `pla help exit-codes`) with a
 * hint, not exit 1 ("a bug") nor 2 ("a typo").
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/errors.js';
import { type LocalServer, startLocalServer } from '../support/local-server.js';

const BIN = fileURLToPath(new URL('../../bin/pla.js', import.meta.url));
let running: LocalServer;

beforeAll(async () => {
  running = await startLocalServer();
});
afterAll(async () => {
  await running?.stop();
});

const start = (args: string[]) =>
  execa('node', [BIN, 'server', 'start', ...args], {
    env: { PLA_CONFIG_DIR: join(running.configDir, 'second'), NO_COLOR: '1' },
    reject: false,
    stdin: 'ignore',
  });

describe('server start on something in use', () => {
  it('a data folder another server holds is exit 10, naming the holder, with a hint', async () => {
    const result = await start(['--port', '0', '--data', running.dataDir]);
    expect(result.exitCode).toBe(EXIT_CODES.inUse);
    expect(result.exitCode).toBe(10);
    expect(result.stderr).toMatch(/^error: data folder .* is in use by /m);
    expect(result.stderr).toMatch(/^hint: stop that server first, or start this one with another data folder/m);
  });

  it('a port in use is exit 10 with a hint', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as AddressInfo;
      const result = await start(['--port', String(port), '--data', join(running.configDir, 'other-data')]);
      expect(result.exitCode).toBe(10);
      expect(result.stderr).toContain(`error: port ${port} on 127.0.0.1 is in use`);
      expect(result.stderr).toMatch(/^hint: stop what uses it, or pick another with --port/m);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
