/** Destructive commands: refusal without a terminal, --dry-run, and the API key kept secret. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DETERMINATIONS_PREFIX as D } from '../../src/contract/operations.js';
import type { FakeServer } from '../support/fake-server.js';
import { RECORD, TEST_KEY, pla, startContractServer, tempDir } from './support.js';

let config: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  config = await tempDir();
});

afterAll(async () => {
  await config.remove();
});

async function withServer(body: (server: FakeServer) => Promise<void>): Promise<void> {
  const server = await startContractServer();
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

const DESTRUCTIVE = [
  ['det', 'delete', '7', '8'],
  ['det', 'remove', '7'],
  ['det', 'decommission', '7'],
  ['det', 'decommission', '--before-now'],
  ['det', 'decommission', '--modified-before', '2024-01-01'],
  ['set', 'delete', '3'],
  ['tasks', 'cancel', '3', '4'],
  ['notif', 'delete', '101'],
  ['notif', 'clear', 'ana'],
  ['notif', 'email', 'delete', '31'],
  ['images', 'delete', '5'],
];

describe('safety', () => {
  it('refuses destructive commands without --yes when stdin is not a terminal, and sends nothing', async () => {
    await withServer(async (server) => {
      const runs = await Promise.all(DESTRUCTIVE.map((args) => pla(args, { server, configDir: config.path })));
      for (const run of runs) {
        expect(run.exitCode).toBe(2);
        expect(run.stderr).toMatch(/^error: refusing to go ahead without confirmation .*stdin is not a terminal\nhint: pass --yes/);
      }
      expect(server.requests).toEqual([]);
    });
  });

  it('names the user and the cut-off as given when refusing (not lower-cased)', async () => {
    await withServer(async (server) => {
      const [clear, byDate] = await Promise.all([
        pla(['notif', 'clear', 'Ana.Smith'], { server, configDir: config.path }),
        pla(['det', 'decommission', '--modified-before', '2024-01-01'], { server, configDir: config.path }),
      ]);
      expect(clear.stderr).toContain('(delete every notification of Ana.Smith)');
      expect(byDate.stderr).toContain('(decommission every determination modified before 2024-01-01T00:00:00.000Z)');
      expect(server.requests).toEqual([]);
    });
  });

  it('--dry-run reads what would be affected and changes nothing', async () => {
    await withServer(async (server) => {
      const [ids, byDate, images, clear] = await Promise.all([
        pla(['det', 'delete', '7', '8', '--dry-run', '-o', 'json'], { server, configDir: config.path }),
        pla(['det', 'decommission', '--modified-before', '2024-02-01', '--dry-run', '-o', 'json'], { server, configDir: config.path }),
        pla(['images', 'delete', '5', '--dry-run', '-o', 'json'], { server, configDir: config.path }),
        pla(['notif', 'clear', 'ana', '--dry-run', '-o', 'json'], { server, configDir: config.path }),
      ]);
      expect(ids.exitCode).toBe(0);
      expect(JSON.parse(ids.stdout).map((r: { id: number }) => r.id)).toEqual([7, 8]);
      expect(ids.stderr).toContain('dry run: would delete 2 determinations on local');
      expect(JSON.parse(byDate.stdout)[0]).toMatchObject({ id: RECORD.id, updatedAt: RECORD.updatedAt });
      expect(byDate.stderr).toContain('modified before 2024-02-01T00:00:00.000Z');
      expect(JSON.parse(images.stdout)).toEqual([{ id: 5, request: 'DELETE /api/images/5' }]);
      expect(clear.stderr).toContain('dry run: would delete every notification of ana');
      expect(server.requests.map((r) => r.method).every((m) => m === 'GET')).toBe(true);
      expect(server.requests.map((r) => r.path).sort()).toEqual([D, `${D}/7`, `${D}/8`, '/api/notifications/ana'].sort());
    });
  });

  it('warns that --api-key is visible, and never prints a whole key, even with --verbose', async () => {
    await withServer(async (server) => {
      const flagKey = 'flag-key-9876543210zyxw';
      const [flag, verbose] = await Promise.all([
        pla(['--api-key', flagKey, 'det', 'get', '7'], { server, configDir: config.path }),
        pla(['det', 'get', '404404', '--verbose'], { server, configDir: config.path }),
      ]);
      expect(flag.exitCode).toBe(0);
      expect(flag.stderr).toContain('warning: --api-key is visible in the process list');
      expect(server.requests.find((r) => r.path === `${D}/7`)?.headers['x-api-key']).toBe(flagKey);
      expect(`${flag.stdout}${flag.stderr}`).not.toContain(flagKey);
      expect(verbose.stderr).toContain('••••6789');
      expect(`${verbose.stdout}${verbose.stderr}`).not.toContain(TEST_KEY);
    });
  });
});
