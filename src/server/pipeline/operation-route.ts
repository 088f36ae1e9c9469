/**
 * The handler of every operation route: the call read by the earlier steps
 * (operation-input.ts), the `Idempotency-Key` replay when the request carries one,
 * the operation's handler (handlers/), and its outcome shaped into the reply.
 * Every failure past admission is answered here in the run's wire form.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '../../contract/operations.js';
import type { Eventually, Store } from '../../store/types.js';
import type { OperationCall, ServerContext } from '../context.js';
import { HANDLERS } from '../handlers/index.js';
import { isBulk, runPerItem } from '../per-item-bulk.js';
import type { Reply } from '../reply.js';
import type { Runtime } from '../runtime.js';
import { PendingBody, operationCall } from './operation-input.js';
import { operationErrorReply, prepared, send, shapeReply } from './replies.js';
import type { RequestState } from './request-state.js';

/** Runs an operation to its reply against `store` (a staging view for a request carrying an `Idempotency-Key`). */
function runOperation(runtime: Runtime, op: Operation, state: RequestState, body: unknown, store: Store): Eventually<Reply> {
  // Read by preParsing before the body; a failure there never reaches the handler.
  const read = state.call as NonNullable<RequestState['call']>;
  const ctx: ServerContext = store === runtime.store ? runtime : { ...runtime, store };
  const failed = (error: unknown) => operationErrorReply(runtime, op, error, state.instance);
  try {
    if (body instanceof PendingBody)
      return body
        .read()
        .then((raw) => callReply(runtime, op, operationCall(runtime, read, raw), ctx))
        .catch(failed);
    const reply = callReply(runtime, op, operationCall(runtime, read, undefined), ctx);
    return reply instanceof Promise ? reply.catch(failed) : reply;
  } catch (error) {
    return failed(error);
  }
}

/** The handler run on a read call, and its outcome shaped into the reply. */
function callReply(runtime: Runtime, op: Operation, call: OperationCall, ctx: ServerContext): Eventually<Reply> {
  // Every operation has one: the handler map is checked against the contract by the compiler.
  const handler = HANDLERS[op.id];
  const perItem = runtime.options.wire.bulkItems === 'per-item' && isBulk(op) && Array.isArray(call.body);
  const outcome = perItem ? runPerItem(handler, call, ctx) : handler(call, ctx);
  return outcome instanceof Promise
    ? outcome.then((settled) => shapeReply(runtime, op, call, settled, perItem))
    : shapeReply(runtime, op, call, outcome, perItem);
}

/** The route handler of `op`. */
export function operationRoute(runtime: Runtime, op: Operation) {
  return function handleOperation(request: FastifyRequest, reply: FastifyReply): Promise<string | Buffer | undefined> | undefined {
    const state = request.pla;
    const { method } = request;
    // Every write may carry a key (an upsert of records without id creates as a POST does).
    if (method !== 'GET' && method !== 'HEAD' && state.idempotencyKey && state.key) {
      const scope = `${state.key.id} ${method} ${state.instance} ${state.idempotencyKey}`;
      const run = (store: Store) => Promise.resolve(runOperation(runtime, op, state, request.body, store));
      return runtime.idempotency.run(scope, run).then((result) => {
        state.replayed = result.replayed;
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return prepared(reply, result.reply);
      });
    }
    const answer = runOperation(runtime, op, state, request.body, runtime.store);
    // No closure, no promise on the way when nothing waits (a page or a get from the file store).
    if (answer instanceof Promise) return answer.then((settled) => prepared(reply, settled));
    send(reply, answer);
    return undefined;
  };
}
