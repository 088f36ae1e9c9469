/**
 * Start-up work of the built CLI, checked by what it loads rather than by time:
 * `--version` loads nothing of dist/, help pages and shell completion nothing of
 * the ES module CLI (dist/cli.js and its chunks: the launcher answers them from
 * CommonJS bundles, src/cli/help-fast.ts, also on a terminal, at its width), a
 * line the launcher leaves to the CLI does load it, and a `get` loads undici
 * (the client's transport) but none of the others, nor the config store when PLA_*
 * variables give URL and key (docs/startup.md). What is loaded is
 * recorded through Node's public module hooks (`module.registerHooks`, or `module.register` on Node 20): every dist/
 * file and built-in module the ES module loader resolves. esbuild marks each bundled package in its chunk with a
 * `// node_modules/<package>/…` comment, so a chunk's text says what it holds.
 * That a `get` never builds stdin is an in-process test (in-process.test.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fakeIO } from '../support/fake-io.js';
import { runInTerminal } from '../support/terminal.js';
import { BIN, RECORD, TEST_KEY, startContractServer, tempDir } from './support.js';

(globalThis as { __PLA_VERSION__?: string }).__PLA_VERSION__ = '0.0.0-test';
const { runPla } = await import('../../src/cli/main.js');

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

/** Writes the recorder into `dir`; returns the file to `--import` and the one it appends to. */
async function recorder(dir: string): Promise<{ register: string; out: string }> {
  const out = join(dir, 'imports.txt');
  await writeFile(join(dir, 'register.mjs'), REGISTER);
  await writeFile(join(dir, 'hooks.mjs'), HOOKS);
  await writeFile(out, '');
  return { register: join(dir, 'register.mjs'), out };
}

/** The files of the ES module CLI (dist/cli.js, dist/chunks/) among `files`. */
function cliModules(files: readonly string[]): string[] {
  return files.filter((file) => file.endsWith(`${sep}dist${sep}cli.js`) || file.includes(`${sep}dist${sep}chunks${sep}`));
}

/** The dist/ files among the URLs the recorder wrote to `out`. */
async function distFiles(out: string): Promise<string[]> {
  const urls = (await readFile(out, 'utf8')).split('\n');
  return [...new Set(urls.filter((url) => url.startsWith('file:') && url.includes('/dist/')))].map((url) => fileURLToPath(url));
}

/** Runs the built CLI with `args`; returns its stdout, the packages bundled in the dist/ files it loaded and the built-ins it imported. */
async function packagesLoadedBy(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; files: string[]; packages: Set<string>; sources: Set<string>; builtins: Set<string> }> {
  const { register, out } = await recorder(dir);
  const result = await execa('node', ['--import', register, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: dir, NO_COLOR: '1', IMPORTS_OUT: out, ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  expect(result.exitCode, String(result.stderr)).toBe(0);
  const builtins = new Set((await readFile(out, 'utf8')).split('\n').filter((url) => url.startsWith('node:')));
  const files = await distFiles(out);
  const packages = new Set<string>();
  const sources = new Set<string>();
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const [, name] of text.matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) packages.add(name as string);
    for (const [, source] of text.matchAll(/^\/\/ (src\/\S+\.ts)$/gm)) sources.add(source as string);
  }
  return { stdout: String(result.stdout), files, packages, sources, builtins };
}

describe('start-up modules', () => {
  it('--version loads nothing of dist/; help pages and completion nothing of the CLI, nor commander or node:http', async () => {
    const dir = await tempDir();
    try {
      const version = await packagesLoadedBy(dir.path, ['--version']);
      expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
      expect(version.files).toEqual([]);
      for (const args of [['--help'], ['-h'], ['det', '--help'], ['server', 'keys', 'create', '-h'], ['help'], ['help', 'det', 'get'], ['help', 'options']]) {
        const help = await packagesLoadedBy(dir.path, args);
        expect(help.stdout, args.join(' ')).toContain('pla');
        expect(cliModules(help.files), args.join(' ')).toEqual([]);
        for (const name of [...HEAVY, 'commander', 'undici']) expect(help.packages, args.join(' ')).not.toContain(name);
        expect(help.builtins, args.join(' ')).not.toContain('node:http');
      }
      // The recorder works: a line the launcher leaves to the CLI loads it (with commander).
      const cli = await packagesLoadedBy(dir.path, ['det', 'get', '7', '--help']);
      expect(cli.stdout).toContain('Usage: pla determinations get');
      expect(cliModules(cli.files)).not.toEqual([]);
      expect(cli.packages).toContain('commander');
      for (const args of [
        ['__complete', 'det', 'de'],
        ['__complete', '-e', ''],
      ]) {
        const completion = await packagesLoadedBy(dir.path, args);
        expect(completion.stdout.split('\n')).toContain(args[1] === 'det' ? 'delete' : 'production');
        expect(cliModules(completion.files), args.join(' ')).toEqual([]);
        for (const name of [...HEAVY, 'commander', 'undici']) expect(completion.packages).not.toContain(name);
        expect(completion.builtins).not.toContain('node:http');
      }
    } finally {
      await dir.remove();
    }
  });

  it('help on a terminal is laid out at its width, and paged when longer, without the CLI', async () => {
    const dir = await tempDir();
    try {
      const { register, out } = await recorder(dir.path);
      const args = ['det', 'upsert', '--help'];
      const shown = await runInTerminal(args, {
        columns: 72,
        rows: 200,
        env: { PLA_CONFIG_DIR: dir.path, NODE_OPTIONS: `--import ${register}`, IMPORTS_OUT: out },
      });
      expect(shown.exitCode).toBe(0);
      expect(cliModules(await distFiles(out))).toEqual([]);
      // What commander lays out for a terminal 72 columns wide (descriptions wrapped at 43), not for 80.
      const at = async (columns: number) => {
        const fake = fakeIO({ stdoutIsTTY: true, stderrIsTTY: true, terminalColumns: columns });
        await runPla(['node', 'pla', ...args], fake.io, { env: {} });
        return fake.stdout().trimEnd().split('\n');
      };
      const expected = await at(72);
      expect(expected).not.toEqual(await at(80));
      // The screen's lines, those the terminal wrapped (an example longer than the width) joined again.
      const printed: string[] = [];
      for (const line of shown.lines) {
        if (line.wrapped) printed.push(`${printed.pop() ?? ''}${line.text}`);
        else printed.push(line.text);
      }
      expect(printed).toEqual(expected.map((line) => line.trimEnd()));
      // A page longer than the terminal goes through the pager (a marking one here), still without the CLI.
      const paged = await runInTerminal(['help', 'det'], {
        columns: 72,
        rows: 12,
        env: { PLA_CONFIG_DIR: dir.path, PAGER: "sed 's/^/| /'", NODE_OPTIONS: `--import ${register}`, IMPORTS_OUT: out },
      });
      expect(paged.lines[0]?.text).toBe('| Usage: pla determinations|det [options] [command]');
      expect(cliModules(await distFiles(out))).toEqual([]);
      // The recorder works there: a line the launcher leaves to the CLI loads it.
      await runInTerminal(['det', 'get', '7', '--help'], {
        columns: 72,
        env: { PLA_CONFIG_DIR: dir.path, NODE_OPTIONS: `--import ${register}`, IMPORTS_OUT: out },
      });
      expect(cliModules(await distFiles(out))).not.toEqual([]);
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
        expect(loaded.files.length, args.join(' ')).toBeGreaterThan(0);
        expect(loaded.packages, args.join(' ')).not.toContain('undici');
      }
    } finally {
      await dir.remove();
    }
  });
});
