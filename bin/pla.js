#!/usr/bin/env node
// Tiny launcher into the bundled CLI (dist/, built by `npm run build`).
// `pla --version` is answered here, from package.json, without loading the CLI.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  // undici parses HTTP with a WebAssembly module. V8 would recompile it in the
  // background with its optimising tier, and Node waits for that work before it
  // exits (~70 ms per run); the baseline compiler is plenty for a CLI's traffic.
  setFlagsFromString('--liftoff-only');
  const { main } = await import('../dist/cli.js');
  await main(process.argv);
}
