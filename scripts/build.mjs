// Bundles the CLI into dist/ with esbuild. Code splitting keeps `pla --version`
// and `pla --help` cheap: each command's handler (and undici, zod, conf, ora …)
// is its own chunk, loaded by `await import()` only when that command runs.
//
// The bundle is written to a temporary folder and swapped into place, so a CLI
// process started meanwhile (tests run in parallel) never sees half a dist/.
import { build } from 'esbuild';
import { readFile, rename, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(`${root}package.json`, 'utf8'));
const staging = `${root}dist.build-${process.pid}`;
const retired = `${root}dist.old-${process.pid}`;

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
    // CommonJS dependencies bundled into ESM chunks still call require().
    banner: {
      js: "import { createRequire as __plaCreateRequire } from 'node:module'; const require = __plaCreateRequire(import.meta.url);",
    },
    define: { __PLA_VERSION__: JSON.stringify(pkg.version) },
    legalComments: 'none',
    logLevel: 'warning',
  });
  await rename(`${root}dist`, retired).catch(() => {});
  await rename(staging, `${root}dist`);
} finally {
  await rm(staging, { recursive: true, force: true });
  await rm(retired, { recursive: true, force: true });
}
