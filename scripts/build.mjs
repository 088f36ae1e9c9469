// Bundles the CLI into dist/ with esbuild. Code splitting keeps `pla --version`
// and `pla --help` cheap: each command's handler (and undici, zod, conf, ora …)
// is its own chunk, loaded by `await import()` only when that command runs.
//
// esbuild splits only ES modules, but Node 20 loads an ES module file noticeably
// slower than a CommonJS one (an async resolve/read/link per file, and an ES
// facade over every built-in imported with `import`). So the chunks are split as
// ES modules, then rollup writes them as CommonJS (dynamic `import()` becomes a
// lazy require()), and dist/ is marked `"type": "commonjs"`.
//
// rollup also re-chunks them. esbuild makes a shared chunk for every set of entry
// points that use a module, including the modules `cli.js` itself imports
// (errors, the contract, the IO object …) whenever a lazy handler imports them
// too: it does not know that a handler is only ever imported after `cli.js` has
// run. rollup does (its chunks leave out what the importer of an `import()` has
// already loaded), so those tiny chunks fold into `cli.js`: a `get` reads 14
// fewer files (docs/startup.md).
//
// Then a few commands run once against the new bundle to leave V8 code caches
// beside its chunks (bin/run-cli.js); only then is it swapped into place, from
// a temporary folder, so a CLI process started meanwhile (tests run in parallel)
// never sees half a dist/.
//
// Every such trick, what it buys (measured) and how to leave it out to measure
// again: docs/startup.md.
import { build } from 'esbuild';
import { rollup } from '@rollup/wasm-node';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { warmCodeCache } from './warm-code-cache.mjs';
import { deferModules, deferrals } from './startup-plugins.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(`${root}package.json`, 'utf8'));
const { values: flags } = parseArgs({
  options: {
    // Where the bundle goes (default dist/); bench/startup-tricks.mjs builds variants elsewhere.
    out: { type: 'string', default: `${root}dist` },
    // Start-up tricks to leave out, comma-separated, only to measure what each buys (docs/startup.md).
    without: { type: 'string', default: '' },
  },
});
const out = resolve(flags.out);
const staging = `${out}.build-${process.pid}`;
const retired = `${out}.old-${process.pid}`;
const target = 'node20.19';

/** The start-up tricks a build can leave out (`--without`). */
const tricks = ['commonjs', 'code-cache', ...deferrals.map((rule) => rule.name)];
const without = new Set(flags.without.split(',').filter(Boolean));
for (const name of without) {
  if (!tricks.includes(name)) throw new Error(`--without: unknown trick ${name}; known: ${tricks.join(', ')}`);
}

/**
 * Writes esbuild's ES module chunks (`files`, path → text) into `dir` as
 * CommonJS, re-chunked by rollup from the entries `cli` and `complete`. The code
 * is esbuild's, already tree-shaken: rollup only moves it between files.
 */
async function writeCommonJs(files, dir) {
  const bundle = await rollup({
    input: { cli: `${dir}/cli.js`, complete: `${dir}/complete.js` },
    treeshake: false,
    // The entries may export more than they declare, so rollup need not add a
    // file that only re-exports the chunk holding them (one file fewer per run).
    preserveEntrySignatures: 'allow-extension',
    plugins: [
      {
        name: 'esbuild-output',
        resolveId(source, importer) {
          if (importer === undefined) return source;
          // A sibling chunk, or else a built-in (everything else is bundled).
          if (source.startsWith('.')) return resolve(dirname(importer), source);
          return { id: source, external: true };
        },
        load: (id) => files.get(id) ?? null,
      },
    ],
    onwarn(warning, warn) {
      // esbuild's chunks import each other in cycles by design (shared runtime helpers).
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
  });
  await bundle.write({
    dir,
    format: 'cjs',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name].js',
    // Keeps `import('./chunks/x.js')` lazy but makes it a require(): no ES module loader.
    dynamicImportInCjs: false,
    // The ES modules were strict; CommonJS is strict only when asked.
    strict: true,
    // Only built-ins are external: their require() result is the namespace.
    interop: 'auto',
    generatedCode: 'es2015',
  });
  await bundle.close();
}

try {
  const { outputFiles } = await build({
    absWorkingDir: root,
    // `complete` answers `pla __complete` (bin/pla.js) without the CLI.
    entryPoints: { cli: 'src/cli/main.ts', complete: 'src/completion/complete.ts' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target,
    outdir: staging,
    chunkNames: 'chunks/[name]-[hash]',
    define: { __PLA_VERSION__: JSON.stringify(pkg.version) },
    legalComments: 'none',
    // Left as ES modules, the chunks need a require() for the CommonJS dependencies' built-ins.
    ...(without.has('commonjs') ? { banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } } : {}),
    plugins: [deferModules(without)],
    write: false,
    logLevel: 'warning',
  });
  if (without.has('commonjs')) {
    for (const file of outputFiles) {
      await mkdir(dirname(file.path), { recursive: true });
      await writeFile(file.path, file.text);
    }
  } else {
    await writeCommonJs(new Map(outputFiles.map((file) => [file.path, file.text])), staging);
  }
  await writeFile(`${staging}/package.json`, `${JSON.stringify({ type: without.has('commonjs') ? 'module' : 'commonjs' })}\n`);
  // The command tree as data for shell completion, from the program just built.
  const { completionData } = await import(pathToFileURL(`${staging}/cli.js`).href);
  await writeFile(`${staging}/completion-tree.json`, JSON.stringify(completionData()));
  if (!without.has('code-cache') && !without.has('commonjs')) await warmCodeCache(staging, out);
  await rename(out, retired).catch(() => {});
  await rename(staging, out);
} finally {
  await rm(staging, { recursive: true, force: true });
  await rm(retired, { recursive: true, force: true });
}
