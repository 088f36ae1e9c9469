// Bundles the CLI into dist/ with esbuild. The CLI is ES modules with code
// splitting: each command's handler (and undici, zod, conf, ora …) is its own
// chunk, loaded by `await import()` only when that command runs. A second pass
// (launcherFastPaths) bundles what bin/pla.js answers without the CLI, shell
// completion and help, as CommonJS, with the data they read. The bundle is
// written to a temporary folder and swapped into place whole, so a CLI process
// started meanwhile (tests run in parallel) never sees half a dist/.
//
// What start-up costs and what each remaining measure buys: docs/startup.md.
import { build } from 'esbuild';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(`${root}package.json`, 'utf8'));
const { values: flags } = parseArgs({
  // Where the bundle goes (default dist/).
  options: { out: { type: 'string', default: `${root}dist` } },
});
const out = resolve(flags.out);
const staging = `${out}.build-${process.pid}`;
const retired = `${out}.old-${process.pid}`;

/**
 * What bin/pla.js answers without the CLI, into `dir` beside the CLI just built
 * there: `complete.cjs` (shell completion) and `help.cjs` (`--help`, `pla help`),
 * CommonJS without splitting, each one file a `require` loads (on Node 22 the
 * ES module loader alone costs about 10 ms, a third of `node -e 0`), and the data
 * they read, taken from the CLI's program: `completion-tree.json` (declared, never
 * run) and `help/` (every help page as commander prints it, with slots for what
 * depends on the width, a file each, and the index that finds them;
 * src/cli/help-capture.ts).
 */
async function launcherFastPaths(dir) {
  await build({
    absWorkingDir: root,
    entryPoints: { complete: 'src/completion/complete.ts', help: 'src/cli/help-fast.ts' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  const { completionData, helpData } = await import(pathToFileURL(`${dir}/cli.js`).href);
  await writeFile(`${dir}/completion-tree.json`, JSON.stringify(completionData()));
  await mkdir(`${dir}/help`);
  for (const [file, data] of await helpData()) await writeFile(`${dir}/help/${file}`, JSON.stringify(data));
}

try {
  await build({
    absWorkingDir: root,
    entryPoints: { cli: 'src/cli/main.ts' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    outdir: staging,
    chunkNames: 'chunks/[name]-[hash]',
    define: { __PLA_VERSION__: JSON.stringify(pkg.version) },
    legalComments: 'none',
    // The bundled CommonJS dependencies require() Node's built-ins; an ES module has no require of its own.
    banner: { js: "import { createRequire as __plaCreateRequire } from 'node:module'; const require = __plaCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  await writeFile(`${staging}/package.json`, `${JSON.stringify({ type: 'module' })}\n`);
  await launcherFastPaths(staging);
  await rename(out, retired).catch(() => {});
  await rename(staging, out);
} finally {
  await rm(staging, { recursive: true, force: true });
  await rm(retired, { recursive: true, force: true });
}
