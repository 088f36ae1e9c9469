// Bundles the CLI into dist/ with esbuild, in one pass. Code splitting keeps
// `pla --help` cheap: each command's handler (and node:http, zod, conf, ora …) is its
// own chunk, loaded by `await import()` only when that command runs; `complete`
// answers shell completion (`pla __complete`) without the CLI. The bundle is
// written to a temporary folder and swapped into place whole, so a CLI process
// started meanwhile (tests run in parallel) never sees half a dist/.
//
// What start-up costs and what each remaining measure buys: docs/startup.md.
import { build } from 'esbuild';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
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

try {
  await build({
    absWorkingDir: root,
    entryPoints: { cli: 'src/cli/main.ts', complete: 'src/completion/complete.ts' },
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
  // The command tree as data for shell completion, from the program just built (declared, never run).
  const { completionData } = await import(pathToFileURL(`${staging}/cli.js`).href);
  await writeFile(`${staging}/completion-tree.json`, JSON.stringify(completionData()));
  await rename(out, retired).catch(() => {});
  await rename(staging, out);
} finally {
  await rm(staging, { recursive: true, force: true });
  await rm(retired, { recursive: true, force: true });
}
