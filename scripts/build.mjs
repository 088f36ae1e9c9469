// Bundles the CLI into dist/ with esbuild. Code splitting keeps `pla --version`
// and `pla --help` cheap: each command's handler (and undici, zod, conf, ora …)
// is its own chunk, loaded by `await import()` only when that command runs.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies bundled into ESM chunks still call require().
  banner: {
    js: "import { createRequire as __plaCreateRequire } from 'node:module'; const require = __plaCreateRequire(import.meta.url);",
  },
  define: { __PLA_VERSION__: JSON.stringify(pkg.version) },
  legalComments: 'none',
  logLevel: 'warning',
});
