#!/usr/bin/env node
// Launches the bundled CLI (dist/, built by `npm run build`). `pla --version` is
// answered here, from package.json; shell completion (`pla __complete`) and help
// pages (`--help`, `pla help …`) by CommonJS bundles from data the build took from
// the CLI (dist/completion-tree.json, dist/help/), without loading the CLI or
// the ES module loader (docs/startup.md).
'use strict';

// Node 22.1+ caches compiled code between runs; Node 20 has no such cache.
require('node:module').enableCompileCache?.();

const args = process.argv.slice(2);
const dist = `${__dirname}/../dist`;
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // A reader gone (`pla --version | false`) is not an error, as for the CLI's output.
  process.stdout.on('error', () => {});
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (args[0] === '__complete') {
  require('../dist/complete.cjs').complete(`${dist}/completion-tree.json`, args.slice(1));
} else if (!(mayBeHelp(args) && helpAnswered(args))) {
  import('../dist/cli.js').then(({ main }) => main(process.argv), buildOnce);
}

/** Whether the command line has a help page's shape: `pla`, `pla … --help`/`-h`, `pla help …`. */
function mayBeHelp(words) {
  return words.length === 0 || words[0] === 'help' || words.at(-1) === '--help' || words.at(-1) === '-h';
}

/** Prints the help page asked for and returns true, or false for the CLI to answer (also when dist/ is not built yet). */
function helpAnswered(words) {
  let help;
  try {
    help = require('../dist/help.cjs');
  } catch (error) {
    if (error?.code === 'MODULE_NOT_FOUND') return false;
    throw error;
  }
  return help.answerHelp(`${dist}/help`, words);
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
