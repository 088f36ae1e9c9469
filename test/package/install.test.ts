/**
 * The package installs lean: `npm pack`, then `npm install -g` of the tarball into
 * a temporary prefix, installs at most 15 packages (dist/ bundles every
 * dependency, so none is needed at run time) without an install-script warning
 * (the package has none: it builds in `prepack`), and the installed `pla` works
 * from there: `--version`, `--help`, and `pla server start` answering on its port. Slow (a pack
 * and an install); kept in this one file.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { tempDir } from '../cli/support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Packages under a node_modules folder, scoped ones counted one by one. */
async function packagesIn(folder: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(folder).catch(() => [])) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) names.push(...(await readdir(join(folder, entry))).map((name) => `${entry}/${name}`));
    else names.push(entry);
  }
  const nested = await Promise.all(names.map((name) => packagesIn(join(folder, name, 'node_modules'))));
  return [...names, ...nested.flat()];
}

describe('the packed package', () => {
  it('installs at most 15 packages with npm install -g, and pla --version and pla server start work from there', async () => {
    const work = await tempDir('pla-pack-');
    try {
      // The dist/ `npm test` built; --ignore-scripts, so packing does not rebuild it under the other tests' feet.
      const packed = await execa('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work.path], { cwd: ROOT });
      const tarball = join(work.path, String(packed.stdout).trim().split('\n').at(-1) ?? '');
      const prefix = join(work.path, 'prefix');
      // No registry needed: nothing is left to fetch. Offline, so a dependency that crept back fails here.
      const install = await execa('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], { cwd: work.path });
      // A published CLI carries no install script: npm 11 warns of any (prepare included), and none may be listed.
      expect(`${String(install.stdout)}${String(install.stderr)}`).not.toMatch(/install-scripts|install scripts/i);
      const manifest = JSON.parse(String((await execa('tar', ['-xOzf', tarball, 'package/package.json'])).stdout)) as { scripts?: Record<string, string> };
      for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts?.[hook], hook).toBeUndefined();
      const installed = await packagesIn(join(prefix, 'lib', 'node_modules'));
      expect(installed).toContain('pla');
      expect(installed.length, installed.join(', ')).toBeLessThanOrEqual(15);

      const pla = join(prefix, 'bin', 'pla');
      const env = { PATH: process.env.PATH ?? '', HOME: work.path, PLA_CONFIG_DIR: join(work.path, 'config') };
      const version = await execa(pla, ['--version'], { env, extendEnv: false });
      expect(String(version.stdout)).toMatch(/^\d+\.\d+\.\d+$/);
      const help = await execa(pla, ['--help'], { env, extendEnv: false });
      expect(String(help.stdout)).toMatch(/^Usage: pla /m);

      const server = execa(pla, ['server', 'start', '--port', '0', '--data', join(work.path, 'data'), '--no-seed', '--env-name', 'local'], {
        env,
        extendEnv: false,
        reject: false,
      });
      let output = '';
      server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        await eventually(async () => /listening on http:\/\/\S+/.test(output));
        const url = /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
        const health = await execa(pla, ['server', 'health', '-o', 'json'], { env, extendEnv: false });
        expect(JSON.parse(String(health.stdout))).toMatchObject({ status: 'ok' });
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      } finally {
        server.kill('SIGTERM');
        await server;
      }
    } finally {
      await work.remove();
    }
  }, 300_000);
});
