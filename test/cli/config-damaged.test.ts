/**
 * A config.json damaged by hand, and one written to a full disk: the error says
 * where the file breaks (never quoting it: it holds keys) and that the disk is
 * full (not "a bug in pla"), and the file is left as it was. The full disk is a
 * small tmpfs the test mounts and fills (root only), as the receipt's full-disk
 * test does; the CLI runs as a process there.
 */
import { mkdir, mkdtemp, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, pla, tempDir } from './support.js';

const KEY = 'sk-live-SECRETKEY0123456789';

describe('a config.json damaged by hand', () => {
  it('names the line and column where it breaks, and quotes nothing of it', async () => {
    const config = await tempDir();
    try {
      // A key whose quotes were lost in an edit: V8's own message would show the characters around it.
      await writeFile(join(config.path, 'config.json'), `{"environments": {"qa": {"baseUrl": "http://127.0.0.1:1",\n  "apiKey": ${KEY}}}}`);
      for (const args of [
        ['config', 'show'],
        ['config', 'set-url', 'http://127.0.0.1:2', '-e', 'qa'],
        ['determinations', 'get', '1', '-e', 'qa'],
      ]) {
        const run = await pla(args, { configDir: config.path });
        expect(run.exitCode).toBe(2);
        expect(run.stderr).toContain('config.json is not valid JSON: it breaks at line 2, column 13');
        for (let i = 0; i + 4 <= KEY.length; i++) expect(run.stderr).not.toContain(KEY.slice(i, i + 4));
      }
    } finally {
      await config.remove();
    }
  });
});

let mountPoint: string;
let mounted = false;

beforeAll(async () => {
  mountPoint = await mkdtemp(join(tmpdir(), 'pla-full-config-'));
  mounted = (await execa('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint], { reject: false })).exitCode === 0;
});

afterAll(async () => {
  if (mounted) await execa('umount', [mountPoint], { reject: false });
  await rm(mountPoint, { recursive: true, force: true });
});

describe('a config written to a full disk', () => {
  it('is an error about the disk, with the file left as it was', async (ctx) => {
    if (!mounted) {
      ctx.skip('cannot mount a tmpfs here (needs root); the full-disk test needs a small filesystem it can fill');
      return;
    }
    const dir = join(mountPoint, 'config');
    await mkdir(dir);
    const run = (args: string[], input?: string) =>
      execa('node', [BIN, ...args], {
        env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: dir, NO_COLOR: '1' },
        extendEnv: false,
        reject: false,
        ...(input ? { input } : {}),
      });
    expect((await run(['config', 'set-url', 'http://127.0.0.1:1', '-e', 'qa'])).exitCode).toBe(0);
    const before = await readFile(join(dir, 'config.json'), 'utf8');
    const { bavail, bsize } = await statfs(mountPoint);
    await writeFile(join(mountPoint, 'filler'), Buffer.alloc(Number(bavail) * Number(bsize)));

    const full = await run(['config', 'set-key', '-e', 'qa'], `${KEY}\n`);
    expect(full.stderr).toContain(`cannot write ${join(dir, 'config.json')}: the disk is full (no space left on device); the configuration is unchanged`);
    expect(full.stderr).toContain(`hint: free some space on the disk holding ${dir}`);
    expect(full.stderr).not.toContain('bug');
    expect(full.stderr).not.toContain(KEY);
    expect(full.exitCode).not.toBe(0);
    expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe(before);
  });
});
