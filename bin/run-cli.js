// Runs the bundled CLI in dist/ with V8's code cache: compiling the JavaScript a
// `get` runs (commander, undici, our chunks) costs it about a sixth of its
// start-up, and Node 20 has no compile cache of its own (22 has
// module.enableCompileCache). The build runs a few commands once with
// `writeCodeCache` (scripts/build.mjs), which leaves `<chunk>.cache` beside each
// chunk; every later run compiles from those. A cache V8 rejects (another Node,
// other V8 flags) or a missing one only means compiling as usual.
//
// Caches are never written outside the build, and they live in dist/, which the
// build replaces whole, so a cache always belongs to the chunk beside it.
'use strict';

const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** Compiles the CommonJS files in `dist` through vm.Script with their caches. */
function useCodeCache(dist, write) {
  const compiled = [];
  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileWithCache(content, filename, format) {
    if (format === 'module' || !filename.startsWith(dist + path.sep)) return compile.call(this, content, filename, format);
    const cacheFile = `${filename}.cache`;
    let cachedData;
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (write) compiled.push({ script, cacheFile });
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, Module.createRequire(filename), this, filename, path.dirname(filename));
  };
  if (write) {
    // At exit the scripts hold every function the run compiled, cached or not,
    // so each warm-up command adds to what the previous ones left.
    process.on('exit', () => {
      for (const { script, cacheFile } of compiled) fs.writeFileSync(cacheFile, script.createCachedData());
    });
  }
}

/**
 * Runs `pla` from the bundle in `dist` with `argv` (as `process.argv`);
 * `writeCodeCache` is for the build's warm-up only.
 */
function runCli(dist, argv, { writeCodeCache = false } = {}) {
  // undici parses HTTP with a WebAssembly module. V8 would recompile it in the
  // background with its optimising tier, and Node waits for that work before it
  // exits (~70 ms per run); the baseline compiler is plenty for a CLI's traffic.
  // Set before anything is compiled: V8 accepts a code cache only under the
  // flags it was made with.
  require('node:v8').setFlagsFromString('--liftoff-only');
  useCodeCache(path.resolve(dist), writeCodeCache);
  return require(path.join(dist, 'cli.js')).main(argv);
}

module.exports = { runCli };
