/**
 * A config folder this user can read but not write (someone else's, shared): a
 * leftover protected.json cannot be moved into config.json there. Commands that
 * only read still run, with its protection applied in memory; a command that writes
 * fails at once naming the file, never "locked by another pla run" after a wait.
 * Root can write anywhere, so the CLI runs as `nobody` in a folder root owns.
 */
import { chmod, cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, pla, tempDir } from './support.js';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

let config: Awaited<ReturnType<typeof tempDir>>;
/**
 * A copy of the built CLI that `nobody` can reach: the clone may sit in a folder
 * only root can enter (a CI's temporary folder). The bundle needs no node_modules.
 */
let cli: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  cli = await tempDir('pla-cli-copy-');
  const repository = dirname(dirname(BIN));
  for (const part of ['bin', 'dist', 'package.json']) await cp(join(repository, part), join(cli.path, part), { recursive: true });
  await chmod(cli.path, 0o755);
});

afterAll(async () => {
  await cli.remove();
});
const CONFIG = JSON.stringify({ environments: { books: { baseUrl: 'http://127.0.0.1:1' } } });

beforeEach(async () => {
  config = await tempDir();
  await writeFile(join(config.path, 'config.json'), CONFIG, { mode: 0o644 });
  await writeFile(join(config.path, 'protected.json'), JSON.stringify({ protected: ['books'] }), { mode: 0o644 });
  await chmod(config.path, 0o755);
});

afterEach(async () => {
  await config.remove();
});

const asNobody = (args: string[]) => pla(args, { configDir: config.path, uid: NOBODY, bin: join(cli.path, 'bin', 'pla.js') });

describe.skipIf(!asRoot)('a config folder this user cannot write', () => {
  it('still shows the environments, protected.json applied in memory, and leaves the files as they were', async () => {
    const shown = await asNobody(['config', 'show', '-o', 'json']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    const rows = JSON.parse(shown.stdout) as Array<{ env: string; protected: boolean }>;
    expect(Object.fromEntries(rows.map((row) => [row.env, row.protected]))).toMatchObject({ books: true, production: false });
    expect(shown.stderr.split('\n')[0]).toBe(
      `warning: cannot write ${join(config.path, 'config.json')} to move protected.json in: permission denied; the protected environments in protected.json apply to this run only`,
    );
    expect((await readdir(config.path)).sort()).toEqual(['config.json', 'protected.json']);
    expect(await readFile(join(config.path, 'config.json'), 'utf8')).toBe(CONFIG);
  });

  it('fails a write at once with the file and the reason, not as a lock held by another run', async () => {
    const protect = await asNobody(['config', 'protect', 'development']);
    expect(protect.exitCode).not.toBe(0);
    expect(protect.stderr).toContain(
      `error: cannot write ${join(config.path, 'config.json')}: permission denied\nhint: ${config.path} must be writable by this user`,
    );
    expect(protect.stderr).not.toContain('locked');
  });
});
