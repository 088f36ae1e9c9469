#!/usr/bin/env node
// Launches the bundled CLI (dist/, built by `npm run build`). `pla --version` is
// answered here, from package.json, and `pla __complete` (shell completion) from
// dist/completion-tree.json, without loading the CLI (docs/startup.md).
'use strict';

// Node 22.1+ caches compiled code between runs; Node 20 has no such cache.
require('node:module').enableCompileCache?.();

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (args[0] === '__complete') {
  import('../dist/complete.js').then(({ complete }) => complete(`${__dirname}/../dist/completion-tree.json`, args.slice(1)));
} else {
  import('../dist/cli.js').then(({ main }) => main(process.argv), buildOnce);
}

/**
 * In a clone where dist/ was never built (`npm ci` no longer builds: the package
 * carries no install script, it builds in `prepack`), builds it once and goes on;
 * anywhere else the import error stands.
 */
function buildOnce(error) {
  const build = `${__dirname}/../scripts/build.mjs`;
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !require('node:fs').existsSync(build)) throw error;
  process.stderr.write('pla: building dist/ first (npm run build)…\n');
  require('node:child_process').execFileSync(process.execPath, [build], { stdio: ['ignore', 'ignore', 'inherit'] });
  return import('../dist/cli.js').then(({ main }) => main(process.argv));
}
