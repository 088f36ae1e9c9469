// An esbuild plugin that keeps the CLI's start-up cheap without touching any
// dependency's source text: a few modules that dependencies require at the top
// but that pla uses rarely or never are *resolved*, at bundle time, to a small
// stand-in that requires the real module on first use. In the bundle every
// CommonJS module is a closure run on its first require(), so a module behind a
// stand-in (and everything it requires) is never run unless it is used.
//
// Each deferral is measured in docs/startup.md. A rule that matches no import
// fails the build ("has the package changed?"), so an upgrade of undici or
// commander cannot silently undo one; test/cli/startup-modules.test.ts checks
// what a `get` loads.

/**
 * A stand-in for any module: calling it, constructing with it or reading any of
 * its members loads the real module and forwards to it.
 */
const lazyModule = (request) => `
let real;
const load = () => (real ??= require(${JSON.stringify(request)}));
module.exports = new Proxy(function lazyModule() {}, {
  apply: (_target, self, args) => Reflect.apply(load(), self, args),
  construct: (_target, args) => Reflect.construct(load(), args),
  get: (_target, key) => load()[key],
  has: (_target, key) => key in load(),
});
`;

/**
 * A stand-in for node:assert. undici calls \`assert(condition)\` on every request,
 * and the condition holds unless undici has a bug, so the real module is loaded
 * only when a condition fails or another member (assert.strictEqual …) is used.
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

/**
 * A stand-in for node:http as undici's core/util.js and dispatcher/client.js use
 * it at their top, where each takes one thing: loading node:http (its client,
 * server, agent, incoming and outgoing modules) costs a `get` 4 ms, and pla's own
 * code loads it only on the way to an error.
 * - `maxHeaderSize`, undici's default limit on response headers: Node's own
 *   default, 16 KiB. So pla's limit does not follow a `--max-http-header-size`
 *   given in NODE_OPTIONS; every other setting pla passes to undici explicitly.
 * - `IncomingMessage`, which undici compares a request body's class with before
 *   destroying it (a node:http server request forwarded as a body). pla never
 *   hands undici such a body (its bodies are strings, buffers and file streams),
 *   so it gets a class nothing is an instance of.
 * Any other member loads the real module.
 */
const httpForUndici = `
let real;
const load = () => (real ??= require('node:http'));
class NotAnIncomingMessage {}
const own = { maxHeaderSize: ${16 * 1024}, IncomingMessage: NotAnIncomingMessage };
module.exports = new Proxy(own, { get: (target, key) => (key in target ? target[key] : load()[key]) });
`;

/** Imports resolved to a stand-in: `request` as written in a file matching `importer`. */
export const deferrals = [
  {
    // undici's HTTP/2 client requires node:http2 (and with it tls and crypto) at
    // its top; undici.Client requires it at its top, though it calls it only for
    // origins dialled with `allowH2`, which pla never sets.
    name: 'lazy-h2',
    importer: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    request: './client-h2.js',
    standIn: lazyModule,
  },
  {
    name: 'lazy-http-util',
    importer: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]core[\\/]util\.js$/,
    request: 'node:http',
    standIn: () => httpForUndici,
  },
  {
    name: 'lazy-http-client',
    importer: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    request: 'node:http',
    standIn: () => httpForUndici,
  },
  {
    name: 'lazy-assert',
    importer: /[\\/]node_modules[\\/]undici[\\/]/,
    request: 'node:assert',
    standIn: () => lazyAssert,
  },
  {
    // commander spawns child processes only for stand-alone executable
    // subcommands, which pla does not declare; node:child_process brings node:net
    // and more into `pla --help`.
    name: 'lazy-child-process',
    importer: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
    request: 'node:child_process',
    standIn: lazyModule,
  },
];

/**
 * The plugin, with the deferrals whose name is not in `without` (the build's
 * PLA_BUILD_WITHOUT, used to measure what each one buys).
 */
export function deferModules(without = new Set()) {
  const active = deferrals.filter((rule) => !without.has(rule.name));
  return {
    name: 'defer-modules',
    setup(build) {
      const matched = new Set();
      build.onStart(() => matched.clear());
      for (const rule of active) {
        const filter = new RegExp(`^${rule.request.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
        build.onResolve({ filter, namespace: 'file' }, async (args) => {
          if (!rule.importer.test(args.importer)) return undefined;
          matched.add(rule.name);
          // The stand-in's own require() of the real module is resolved from the
          // importer's folder, by esbuild as usual (it comes from another namespace).
          // One stand-in per built-in; one per importer for a relative request.
          const path = rule.request.startsWith('.') ? `${args.importer}:${rule.request}` : rule.request;
          return { path, namespace: 'defer-modules', pluginData: { rule, resolveDir: args.resolveDir } };
        });
      }
      build.onLoad({ filter: /.*/, namespace: 'defer-modules' }, (args) => ({
        contents: args.pluginData.rule.standIn(args.pluginData.rule.request),
        resolveDir: args.pluginData.resolveDir,
        loader: 'js',
      }));
      build.onEnd((result) => {
        if (result.errors.length > 0) return;
        const unmatched = active.filter((rule) => !matched.has(rule.name));
        return {
          errors: unmatched.map((rule) => ({
            text: `defer-modules: ${rule.name}: no import of ${JSON.stringify(rule.request)} from ${rule.importer}; has the package changed?`,
          })),
        };
      });
    },
  };
}
