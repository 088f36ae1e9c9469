#!/usr/bin/env node
// Tiny launcher into the bundled CLI (dist/, built by `npm run build`).
// `pla --version` is answered here, from package.json, without loading the CLI,
// and so is `pla __complete` (shell completion), from dist/completion-tree.json.
//
// This file and dist/ are CommonJS (bin/package.json, scripts/build.mjs): Node 20
// starts its ES module loader only for an ES module, and sparing it, with its
// per-file async resolve and read, is a few milliseconds of every run.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (args[0] === '__complete') {
  // Shell completion (`pla completion`): reads the prebuilt command tree, never the CLI.
  require('../dist/complete.js').complete(`${__dirname}/../dist/completion-tree.json`, args.slice(1));
} else {
  require('./run-cli.js').runCli(`${__dirname}/../dist`, process.argv);
}
