/**
 * The local server's request path, on fastify: one declared pipeline, in the order a
 * request meets it.
 *
 *   rewriteUrl   the target read as the WHATWG URL parser reads it (dot segments,
 *                percent-encoding), so routing, logging and problems see one path
 *   route        the contract's 52 operations and the admin endpoints (routes.ts);
 *                no route: 405 naming the methods the path takes, or 404
 *   onRequest    admission (pipeline/admission.ts): target, 405, store, key,
 *                permission, rate limit — nothing of the body read yet
 *   onRequest    faults (pipeline/faults.ts): --latency, --fail-rate
 *   preParsing   the operation's parameters, paging and query (pipeline/operation-input.ts)
 *   parser '*'   the JSON body under the caps, numbers exact (same file)
 *   handler      idempotent replay, the operation's handler, the reply in the wire
 *                form (pipeline/operation-route.ts, pipeline/replies.ts); admin
 *                endpoints: admin.ts
 *   onSend       drain an unread body, the request log, the write watch (pipeline/answer.ts)
 *   errors       every failure as problem+json (setErrorHandler, setNotFoundHandler,
 *                clientErrorHandler, frameworkErrors)
 *
 * To add an endpoint of the server's own, register a route (or a plugin of routes)
 * in `buildApp` below, with `config.target` set so admission knows what it needs;
 * docs/architecture.md walks through adding an operation and a fault kind.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { runAdmin } from './admin.js';
import { mediaType } from './body.js';
import { HttpProblem } from './problem.js';
import { parseTarget } from './request-target.js';
import { MAX_PARAM_LENGTH, contractParams, createRouter, routeEntries, type RouteTarget, type ServerRouter } from './routes.js';
import type { Runtime } from './runtime.js';
import { admission, type Arrival } from './pipeline/admission.js';
import { answer } from './pipeline/answer.js';
import { answerClientError } from './pipeline/client-errors.js';
import { faults } from './pipeline/faults.js';
import { parseBody, readParameters } from './pipeline/operation-input.js';
import { operationRoute } from './pipeline/operation-route.js';
import { errorReply, operationErrorReply, prepared, send } from './pipeline/replies.js';
import type { RequestState } from './pipeline/request-state.js';

/** The node:http listener fastify hands a server factory. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** The query as fastify would parse it is never read: the pipeline reads the target's `URLSearchParams` (rewriteUrl). */
const NO_QUERY = Object.freeze({});

/** The answer to any failure: in the wire form once the operation's own input is being read, else a plain problem. */
function failureBody(runtime: Runtime, request: FastifyRequest, error: unknown) {
  const state: RequestState | null = request.pla;
  const target = request.routeOptions.config.target;
  const instance = state?.instance ?? request.url;
  const problem = fastifyProblem(error, request, target);
  if (state?.inOperation && target?.kind === 'operation') return operationErrorReply(runtime, target.op, problem, instance);
  return errorReply(runtime, problem, instance);
}

/** fastify's own refusals (an unreadable Content-Type header, a bad percent-escape) as the problems the server answers. */
function fastifyProblem(error: unknown, request: FastifyRequest, target: RouteTarget | undefined): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const expected = target?.kind === 'operation' && target.op.body?.kind === 'image-upload' ? 'multipart/form-data' : 'application/json';
    return new HttpProblem(415, `expected a body of type ${expected}, got ${mediaType(request.raw) || 'none'}`, { slug: 'unsupported-media-type' });
  }
  return error;
}

/** Why no route took a request: 405 naming the methods its path takes, or 404. */
function noRoute(request: FastifyRequest, lookup: ServerRouter): HttpProblem {
  const path = request.pla?.instance ?? request.url.split('?')[0] ?? '/';
  const match = lookup.match(request.method, path);
  if ('allowed' in match && match.allowed.length) {
    return new HttpProblem(405, `${request.method} is not allowed on ${path}; use ${match.allowed.join(', ')}`, {
      headers: { allow: match.allowed.join(', ') },
    });
  }
  return new HttpProblem(404, `no endpoint at ${path}`, { slug: 'no-endpoint' });
}

/**
 * The fastify app of one server; `serve` makes the node:http server it runs on (with
 * the connection guards, server.ts). Resolves once every route is registered.
 */
export async function buildApp(runtime: Runtime, serve: (handler: RequestHandler) => Server): Promise<FastifyInstance> {
  const arrivals = new WeakMap<IncomingMessage, Arrival>();
  const app = Fastify({
    serverFactory: (handler) => serve(handler),
    logger: false,
    disableRequestLogging: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Requests in flight finish when the server closes (server.ts closes the node server itself).
    return503OnClosing: false,
    rewriteUrl(req) {
      const raw = req.url ?? '/';
      let target;
      try {
        target = parseTarget(raw);
      } catch {
        target = undefined; // answered 400 by admission
      }
      arrivals.set(req, { started: performance.now(), target });
      return target ? target.pathname + target.search : raw;
    },
    querystringParser: () => NO_QUERY,
    clientErrorHandler: answerClientError,
    frameworkErrors(error, request, reply) {
      // A path with a broken percent-escape names no endpoint.
      const problem = error.code === 'FST_ERR_BAD_URL' ? new HttpProblem(404, `no endpoint at ${request.url}`, { slug: 'no-endpoint' }) : error;
      void send(reply, errorReply(runtime, problem, request.url));
    },
  });
  // Set by admission, the first hook of every request (null until then, as fastify wants a decoration's first value).
  app.decorateRequest('pla', null as unknown as RequestState);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', parseBody(runtime));
  app.addHook('onRequest', admission(runtime, arrivals));
  app.addHook('onRequest', faults(runtime));
  app.addHook('preParsing', readParameters(runtime));
  app.addHook('onSend', answer(runtime));
  app.setErrorHandler((error, request, reply) => send(reply, failureBody(runtime, request, error)));
  const lookup = createRouter();
  app.setNotFoundHandler((request, reply) => send(reply, errorReply(runtime, noRoute(request, lookup), request.pla?.instance ?? request.url)));
  for (const entry of routeEntries()) {
    const { target, names } = entry;
    app.route({
      method: entry.method,
      url: entry.url,
      config: { target, names },
      handler:
        target.kind === 'operation'
          ? operationRoute(runtime, target.op)
          : (request, reply) => {
              const { target: url, key } = request.pla;
              // Admission answers a request without a target: there is one here.
              if (!url) throw new HttpProblem(400, 'the request target is not a valid URL path', { slug: 'bad-request' });
              const params = contractParams(names, request.params as Record<string, string>);
              return runAdmin(runtime, target.name, params, url, request.raw, key).then((settled) => prepared(reply, settled));
            },
    });
  }
  await app.ready();
  return app;
}
