/**
 * From a handler's outcome or a failure to the `Reply` value (reply.ts) the route
 * sends: the contract row's `response` kind and `status`, in the run's wire form
 * (`--wire`). Replies stay values, not writes, because an `Idempotency-Key` replay
 * must send the very same answer again (idempotency.ts keeps them).
 */
import type { FastifyReply } from 'fastify';
import type { Operation } from '../../contract/operations.js';
import { StoreFullError, StoreUnavailableError, isOutOfSpace } from '../../store/errors.js';
import { ignoredFieldsHeader, type OperationCall, type OperationOutcome } from '../context.js';
import { CLIENT_ABORTED, HttpProblem, noSpace, storeUnavailable } from '../problem.js';
import { emptyReply, jsonReply, problemReply, type Reply } from '../reply.js';
import type { Runtime } from '../runtime.js';
import { envelopeReply, refusalReply } from '../wire.js';

/** The reply the row's `response` kind and `status` call for; a bulk request answered item by item always carries its list of results. */
export function shapeReply(runtime: Runtime, op: Operation, call: OperationCall, outcome: OperationOutcome, perItem: boolean): Reply {
  const headers = call.ignored.length ? { ...outcome.headers, ...ignoredFieldsHeader(call.ignored) } : outcome.headers;
  if (perItem) return envelopeReply(runtime.options.wire, 200, outcome.data, outcome.message ?? op.summary, headers);
  switch (op.response) {
    case 'single':
    case 'list':
    case 'void':
      return envelopeReply(runtime.options.wire, op.status, outcome.data, outcome.message ?? op.summary, headers);
    case 'none':
      return emptyReply(op.status, headers);
    default:
      return jsonReply(op.status, outcome.data, headers);
  }
}

/** Whether `op` reads one record by id: the answer a `softNotFound` profile gives 200 with no record for a missing one. */
function readsOneRecord(op: Operation): boolean {
  return op.method === 'GET' && op.response === 'single' && op.pathParams.length > 0;
}

/** An operation's failure in the run's wire form: refusals and missing records may be answered inside a 200. */
export function operationErrorReply(runtime: Runtime, op: Operation, error: unknown, instance: string): Reply {
  const { wire } = runtime.options;
  if (!(error instanceof HttpProblem) || error.status >= 500 || error.options.slug === CLIENT_ABORTED) return errorReply(runtime, error, instance);
  if (wire.softNotFound && error.status === 404 && readsOneRecord(op)) return envelopeReply(wire, 200, null, `${op.summary}: nothing found`);
  return refusalReply(wire, error, instance);
}

/** Any failure as a problem reply: the client's, the store's (503, 507), or ours (500, its stack in the server log). */
export function errorReply(runtime: Runtime, error: unknown, instance: string): Reply {
  if (error instanceof HttpProblem && error.options.slug === CLIENT_ABORTED) runtime.warn(`${instance}: ${error.detail}`);
  if (error instanceof HttpProblem) return problemReply(error, instance);
  if (error instanceof StoreUnavailableError) return problemReply(storeUnavailable(error.message), instance);
  if (error instanceof StoreFullError || isOutOfSpace(error)) {
    runtime.warn(`${instance}: no space left on the data folder; answered 507`);
    return problemReply(noSpace(), instance);
  }
  runtime.warn(`internal error on ${instance}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return problemReply(new HttpProblem(500, 'internal server error; see the server log'), instance);
}

/**
 * Puts a reply's status and headers on fastify's reply and hands back its body, for a
 * route to send or return (fastify sends what an async handler returns; `undefined`
 * is an empty body, without a content type).
 */
export function prepared(reply: FastifyReply, answer: Reply): string | Buffer | undefined {
  reply.code(answer.status);
  reply.headers(answer.headers);
  return answer.body;
}

/** Sends a reply value now. */
export function send(reply: FastifyReply, answer: Reply): FastifyReply {
  return reply.send(prepared(reply, answer));
}
