/**
 * Start-up work of the built CLI, checked by what it loads rather than by time:
 * `--version` loads nothing of dist/, `--help` and shell completion load neither
 * node:http nor a chunk holding undici, zod, conf or ora, and a `get` loads undici
 * (the client's transport) but none of the others, nor the config store when PLA_*
 * variables give URL and key (docs/startup.md). What is loaded is
 * recorded through Node's public module hooks (`module.registerHooks`, or `module.register` on Node 20): every dist/
 * file and built-in module the ES module loader resolves. esbuild marks each bundled package in its chunk with a
 * `// node_modules/<package>/…` comment, so a chunk's text says what it holds.
 * That a `get` never builds stdin is an in-process test (in-process.test.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, RECORD, TEST_KEY, startContractServer, tempDir } from './support.js';

/**
 * Registers the recorder: `module.registerHooks` (synchronous, in this thread) where
 * Node has it (22.15+; `module.register` is deprecated from Node 26, DEP0205), else
 * HOOKS (below) from beside it through `module.register`.
 */
const REGISTER = `import * as module from 'node:module';
import { appendFileSync } from 'node:fs';
if (typeof module.registerHooks === 'function') {
  module.registerHooks({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      if (resolved.url.startsWith('file:') || resolved.url.startsWith('node:')) appendFileSync(process.env.IMPORTS_OUT, resolved.url + '\\n');
      return resolved;
    },
  });
} else {
  module.register('./hooks.mjs', import.meta.url);
}
`;

/** Appends every file URL the loader resolves to $IMPORTS_OUT. */
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith('file:') || resolved.url.startsWith('node:')) appendFileSync(process.env.IMPORTS_OUT, resolved.url + '\\n');
  return resolved;
}
`;

const HEAVY = ['zod', 'conf', 'ora'];

/** Runs the built CLI with `args`; returns its stdout, the packages bundled in the dist/ files it loaded and the built-ins it imported. */
async function packagesLoadedBy(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; files: number; packages: Set<string>; sources: Set<string>; builtins: Set<string> }> {
  const out = join(dir, 'imports.txt');
  await writeFile(join(dir, 'register.mjs'), REGISTER);
  await writeFile(join(dir, 'hooks.mjs'), HOOKS);
  await writeFile(out, '');
  const result = await execa('node', ['--import', join(dir, 'register.mjs'), BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: dir, NO_COLOR: '1', IMPORTS_OUT: out, ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  expect(result.exitCode, String(result.stderr)).toBe(0);
  const urls = (await readFile(out, 'utf8')).split('\n');
  const builtins = new Set(urls.filter((url) => url.startsWith('node:')));
  const files = [...new Set(urls.filter((url) => url.startsWith('file:') && url.includes('/dist/')))].map((url) => fileURLToPath(url));
  const packages = new Set<string>();
  const sources = new Set<string>();
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const [, name] of text.matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) packages.add(name as string);
    for (const [, source] of text.matchAll(/^\/\/ (src\/\S+\.ts)$/gm)) sources.add(source as string);
  }
  return { stdout: String(result.stdout), files: files.length, packages, sources, builtins };
}

describe('start-up modules', () => {
  it('--version loads nothing of dist/; --help and completion load neither node:http nor undici, zod, conf, ora', async () => {
    const dir = await tempDir();
    try {
      const version = await packagesLoadedBy(dir.path, ['--version']);
      expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
      expect(version.files).toBe(0);
      const help = await packagesLoadedBy(dir.path, ['--help']);
      expect(help.stdout).toContain('Usage: pla');
      expect(help.packages).toContain('commander'); // the recorder works
      for (const name of [...HEAVY, 'undici']) expect(help.packages).not.toContain(name);
      expect(help.builtins).not.toContain('node:http');
      const completion = await packagesLoadedBy(dir.path, ['__complete', 'det', 'de']);
      expect(completion.stdout.split('\n')).toContain('delete');
      expect(completion.files).toBeGreaterThan(0);
      for (const name of [...HEAVY, 'commander', 'undici']) expect(completion.packages).not.toContain(name);
      expect(completion.builtins).not.toContain('node:http');
    } finally {
      await dir.remove();
    }
  });

  it('a get loads undici, and not zod, conf, ora or the config store', async () => {
    const dir = await tempDir();
    const server = await startContractServer();
    try {
      const get = await packagesLoadedBy(dir.path, ['determinations', 'get', '7', '-o', 'json'], { PLA_BASE_URL: server.url, PLA_API_KEY: TEST_KEY });
      expect(JSON.parse(get.stdout)).toEqual(RECORD);
      expect(get.packages).toContain('undici');
      for (const name of HEAVY) expect(get.packages).not.toContain(name);
      expect(get.sources).toContain('src/cli/handlers/get.ts'); // the recorder sees sources
      // URL and key from PLA_* variables: the config file is not read, so its store (about 17 KB) is not loaded.
      expect(get.sources).not.toContain('src/config/conf-store.ts');
    } finally {
      await server.close();
      await dir.remove();
    }
  });

  it('commands that do not talk to the service (config show, runs list) do not load undici', async () => {
    const dir = await tempDir();
    try {
      for (const args of [
        ['config', 'show'],
        ['runs', 'list'],
      ]) {
        const loaded = await packagesLoadedBy(dir.path, args);
        expect(loaded.files, args.join(' ')).toBeGreaterThan(0);
        expect(loaded.packages, args.join(' ')).not.toContain('undici');
      }
    } finally {
      await dir.remove();
    }
  });
});
