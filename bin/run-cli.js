// Runs the bundled CLI in dist/ with a compile cache: compiling the JavaScript a
// `get` runs (commander, undici, our chunks) costs it about a sixth of its
// start-up (docs/startup.md).
//
// Node 22.1+ has its own: module.enableCompileCache(), used when present. Node
// 20 (which pla supports) has none, so there the build runs a few commands once
// with `writeCodeCache` (scripts/build.mjs), which leaves a V8 code cache
// `<chunk>.cache` beside each chunk, and every later run compiles from those. A
// cache V8 rejects (another Node, other V8 flags) or a missing one only means
// compiling as usual.
//
// Those caches are never written outside the build, and they live in dist/,
// which the build replaces whole, so a cache always belongs to the chunk beside it.
'use strict';

const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/**
 * The `require` a chunk sees: what Node's own loader gives a module, without
 * Module.createRequire's new Module and path work per file (a `get` loads some
 * twenty chunks; esbuild's and rollup's code calls only require() itself).
 */
function requireFrom(module) {
  const requireChunk = (id) => module.require(id);
  requireChunk.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  requireChunk.cache = Module._cache;
  return requireChunk;
}

/**
 * Compiles the CommonJS files in `dist` through vm.Script with their caches;
 * with `writeAs` (the build's warm-up), also writes their caches, made as if
 * the files were in the folder `writeAs`.
 */
function useCodeCache(dist, writeAs) {
  const write = writeAs !== undefined;
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
    // V8 keeps the file name a cache was made with and shows it in stack traces
    // (a cache made under another name is not refused): so the warm-up, which
    // runs in the build's staging folder, names each file as it will be named.
    const scriptName = write ? path.join(writeAs, path.relative(dist, filename)) : filename;
    const script = new vm.Script(Module.wrap(content), { filename: scriptName, cachedData });
    if (write) compiled.push({ script, cacheFile });
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, requireFrom(this), this, filename, path.dirname(filename));
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
 * Turns on Node's own compile cache where this Node has one (22.1+); false when
 * it has none or could not start it (then the prebuilt caches are used). A
 * cache the user turned off (NODE_DISABLE_COMPILE_CACHE) stays off.
 */
function useNodeCompileCache() {
  if (typeof Module.enableCompileCache !== 'function') return false;
  const { status } = Module.enableCompileCache();
  return status !== Module.constants.compileCacheStatus.FAILED;
}

/**
 * Runs `pla` from the bundle in `dist` with `argv` (as `process.argv`);
 * `writeCodeCache` (the folder the bundle will be moved to) is for the build's
 * warm-up only, `liftoffOnly: false` for
 * bench/startup-tricks.mjs only.
 */
function runCli(dist, argv, { writeCodeCache, liftoffOnly = true } = {}) {
  // undici parses HTTP with a WebAssembly module. V8 would recompile it in the
  // background with its optimising tier, and Node waits for that work before it
  // exits; the baseline compiler is plenty for a CLI's traffic (docs/startup.md).
  // Set before anything is compiled: V8 accepts a code cache only under the
  // flags it was made with.
  if (liftoffOnly) require('node:v8').setFlagsFromString('--liftoff-only');
  if (writeCodeCache !== undefined || !useNodeCompileCache()) {
    useCodeCache(path.resolve(dist), writeCodeCache === undefined ? undefined : path.resolve(writeCodeCache));
  }
  return require(path.join(dist, 'cli.js')).main(argv);
}

module.exports = { runCli };
