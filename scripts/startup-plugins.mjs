// An esbuild plugin that keeps the CLI's start-up cheap: built-in modules that
// dependencies load at the top but use rarely or never are loaded on first use.
// Each deferral was measured with bench/cli-startup.mjs; none changes what the
// code does, only when Node's own modules are loaded.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Replaces each `from` (which must occur exactly once, or the build fails) with `to`. */
function patch(source, file, replacements) {
  let patched = source;
  for (const [from, to] of replacements) {
    const at = patched.indexOf(from);
    if (at === -1 || patched.indexOf(from, at + 1) !== -1) {
      throw new Error(`startup-plugins: expected exactly one ${JSON.stringify(from)} in ${file}; has the package changed?`);
    }
    patched = patched.slice(0, at) + to + patched.slice(at + from.length);
  }
  return patched;
}

/** Dependency files whose top-level require() of a built-in is deferred to first use. */
const deferred = [
  {
    // undici's HTTP/2 client loads node:http2 (and with it tls and crypto) at the
    // top, though it calls http2.connect() only for origins dialled with
    // `allowH2`, which pla never sets. Its constants are plain protocol values,
    // read here at build time.
    file: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/,
    replacements: () => [
      [
        "http2 = require('node:http2')",
        `http2 = { constants: ${JSON.stringify(require('node:http2').constants)}, connect: (...args) => require('node:http2').connect(...args) }`,
      ],
    ],
  },
  {
    // undici reads node:http only for http.maxHeaderSize, when a Client is made
    // without maxHeaderSize (pla's transport gives one), and for IncomingMessage
    // when it destroys a stream body. Loading node:http costs a `get` ~3 ms.
    file: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    replacements: () => [
      ["const http = require('node:http')", "const http = { get maxHeaderSize () { return require('node:http').maxHeaderSize } }"],
      [
        `const getDefaultNodeMaxHeaderSize = http &&
  http.maxHeaderSize &&
  Number.isInteger(http.maxHeaderSize) &&
  http.maxHeaderSize > 0
  ? () => http.maxHeaderSize
  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }`,
        `const getDefaultNodeMaxHeaderSize = () => {
  if (Number.isInteger(http.maxHeaderSize) && http.maxHeaderSize > 0) return http.maxHeaderSize
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}`,
      ],
    ],
  },
  {
    file: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]core[\\/]util\.js$/,
    replacements: () => [
      ["const { IncomingMessage } = require('node:http')\n", ''],
      ['.constructor === IncomingMessage)', ".constructor === require('node:http').IncomingMessage)"],
    ],
  },
  {
    // commander spawns child processes only for stand-alone executable
    // subcommands, which pla does not declare.
    file: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
    replacements: () => [
      ["const childProcess = require('node:child_process');", "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"],
    ],
  },
];

/**
 * undici requires node:assert in every module only to call `assert(condition)`,
 * which holds unless undici has a bug; loading node:assert (and its error
 * formatting) costs a `get` about a millisecond. It gets a stand-in that loads the
 * real one the first time a condition fails or any other member is used.
 */
const lazyAssert = `
let real;
const load = () => (real ??= require('node:assert'));
module.exports = new Proxy(function assert() {}, {
  apply(_target, self, args) {
    if (!args[0]) Reflect.apply(load(), self, args);
  },
  get: (_target, key) => load()[key],
});
`;

/** Applies `deferred`, and gives undici the lazy node:assert. */
export const deferBuiltins = {
  name: 'defer-builtins',
  setup(build) {
    for (const { file, replacements } of deferred) {
      build.onLoad({ filter: file }, async (args) => ({
        contents: patch(await readFile(args.path, 'utf8'), args.path, replacements()),
        loader: 'js',
      }));
    }
    build.onResolve({ filter: /^node:assert$/ }, (args) =>
      /[\\/]node_modules[\\/]undici[\\/]/.test(args.importer) ? { path: 'undici-assert', namespace: 'lazy-assert' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-assert' }, () => ({ contents: lazyAssert, loader: 'js' }));
  },
};
