/**
 * `pla server start` asked for something it cannot do: each is the user's mistake,
 * said in one line with a hint, exit 2 — not an "unexpected error" (exit 1).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pla-start-errors-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const start = (args: string[]) =>
  execa('node', [join(ROOT, 'bin', 'pla.js'), 'server', 'start', '--port', '0', ...args], {
    cwd: ROOT,
    env: { PLA_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' },
    reject: false,
    stdin: 'ignore',
  });

describe('server start refusals', () => {
  it('--data naming a file is exit 2, saying so', async () => {
    const file = join(work, 'not-a-folder');
    await writeFile(file, 'x');
    const result = await start(['--data', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`--data ${file} is not a folder`);
  });

  it('--host that is no address of this machine is exit 2, with a hint', async () => {
    const result = await start(['--host', '999.1.1.1', '--data', join(work, 'data')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('cannot listen on 999.1.1.1');
    expect(result.stderr).toContain('--host 127.0.0.1');
  });
});
