// The floor of a `get`: what it would cost if pla's own part were nothing. undici's
// public entry point bundled as scripts/build.mjs bundles it (one esbuild pass, an ES
// module for Node 20.19 with a `require` for the built-ins), started by a CommonJS
// launcher that turns the compile cache on as bin/pla.js does, making one request with
// an Agent and printing the record as `-o json` does. bench/cli-startup.mjs runs it
// beside the `get`: the difference is pla's part (docs/startup.md, "The floor").
import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What the floor runs: the names pla imports from undici (its whole index loads whichever are named), one GET, the record. */
const PROGRAM = `import { Agent, EnvHttpProxyAgent, Pool, ProxyAgent, RetryHandler } from 'undici';
export async function main(baseUrl) {
  void [EnvHttpProxyAgent, Pool, ProxyAgent, RetryHandler];
  const agent = new Agent();
  const { body } = await agent.request({ origin: baseUrl, path: '/determinations/1', method: 'GET', headers: { accept: 'application/json' } });
  process.stdout.write(JSON.stringify((await body.json()).data, null, 2) + '\\n');
  await agent.close();
}
`;

const LAUNCHER = `'use strict';
require('node:module').enableCompileCache?.();
import('./floor.js').then(({ main }) => main(process.env.PLA_BASE_URL));
`;

/** Builds the floor in a temporary folder; returns the launcher to run (`node <launcher>`, PLA_BASE_URL set) and a remover. */
export async function buildUndiciFloor() {
  const dir = await mkdtemp(join(tmpdir(), 'pla-undici-floor-'));
  await writeFile(join(dir, 'program.mjs'), PROGRAM);
  await build({
    absWorkingDir: root,
    entryPoints: { floor: join(dir, 'program.mjs') },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    outdir: dir,
    nodePaths: [join(root, 'node_modules')],
    legalComments: 'none',
    banner: { js: "import { createRequire as __plaCreateRequire } from 'node:module'; const require = __plaCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  await writeFile(join(dir, 'launch.cjs'), LAUNCHER);
  return { launcher: join(dir, 'launch.cjs'), remove: () => rm(dir, { recursive: true, force: true }) };
}
