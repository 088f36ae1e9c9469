/**
 * onRequest, second: the faults a developer asked for (`--latency`, `--fail-rate`, or
 * set at run time), on operations only, and before anything of the request is read,
 * so that a request failed by injection is always safe to retry.
 *
 * To add a fault kind: a field in ServerOptions (options.ts) and its flag (start.ts),
 * then one more step here; it reads `runtime.options` per request, so a value changed
 * while the server runs applies to the next request.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { HttpProblem } from '../problem.js';
import type { Runtime } from '../runtime.js';

export function faults(runtime: Runtime) {
  return function injectFaults(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (request.routeOptions.config.target?.kind !== 'operation') return done();
    const { latencyMs } = runtime.options;
    if (latencyMs > 0) setTimeout(() => failSome(runtime, done), latencyMs);
    else failSome(runtime, done);
  };
}

function failSome(runtime: Runtime, done: HookHandlerDoneFunction): void {
  const { failRate } = runtime.options;
  if (failRate > 0 && Math.random() < failRate) done(new HttpProblem(500, 'injected failure (--fail-rate)', { slug: 'injected-failure' }));
  else done();
}
