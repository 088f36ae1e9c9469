/**
 * One write, confirmed: its answer when the answer confirms it; else (an answer
 * pla cannot read, such as a sign-in page answered 200, no record where one was
 * due, a 202, or words that do not say done) the record read back decides: done
 * as asked, not done (a refusal), or unknown (the error, marked
 * `outcomeUnknown`). Never "done" on an answer that did not say so.
 */
import { describeAnswer } from '../client/answer.js';
import type { CallOptions, CallResult, PlaClient } from '../client/types.js';
import { operation, type OperationId } from '../contract/operations.js';
import { RejectedError, UnreadableAnswerError } from '../errors.js';
import { singleResult } from './item-results.js';
import { readBack } from './read-back.js';

/** What a 2xx answer that confirms nothing was, in a few words. */
function unconfirming(result: CallResult): string {
  if (result.status === 202) return 'status 202 (accepted, not done)';
  if (result.data === undefined || result.data === null) return result.message ? `no data ("${result.message.slice(0, 60)}")` : 'no data';
  return describeAnswer(result.data, undefined);
}

/**
 * Decides the write `operationId` of `sent` by reading it back, for an answer
 * (`error`: the unreadable one, or the answer that confirms nothing) that did not.
 */
async function decidedByReadBack(
  client: PlaClient,
  operationId: OperationId,
  options: CallOptions,
  sent: unknown,
  error: UnreadableAnswerError,
): Promise<CallResult> {
  const done = String(operation(operationId).done);
  const verdict = await readBack(client, operationId, sent, options.signal);
  switch (verdict.kind) {
    case 'confirmed':
      return { status: error.status, data: verdict.record, message: `the answer was ${error.saw}; ${verdict.how}`, headers: {} };
    case 'not-applied':
      throw new RejectedError(
        `not ${done}: ${error.message}; ${verdict.reason}`,
        error.status,
        error.problem,
        error.request ? { request: error.request } : undefined,
      );
    case 'unknown': {
      // Still the unreadable answer (its exit code says why), now also of unknown outcome.
      const unknown = new UnreadableAnswerError(
        `${error.message}; outcome unknown: ${verdict.reason}`,
        error.status,
        error.saw,
        error.problem,
        error.request ? { request: error.request } : undefined,
      );
      unknown.outcomeUnknown = true;
      throw unknown;
    }
  }
}

/** Calls the write `operationId`; `sent` is the id or record it changes (what reading back checks). */
export async function confirmedCall(client: PlaClient, operationId: OperationId, options: CallOptions, sent: unknown): Promise<CallResult> {
  const op = operation(operationId);
  let result: CallResult;
  try {
    result = await client.call(operationId, options);
  } catch (error) {
    if (!(error instanceof UnreadableAnswerError) || op.done === undefined) throw error;
    return decidedByReadBack(client, operationId, options, sent, error);
  }
  if (op.done === undefined) return result;
  // The answer may be a result rather than an envelope (`{"id": 7, "cancelled": false, "reason": …}`): read it as one.
  const said = singleResult(op, sent, result);
  if (said.kind === 'failed') throw new RejectedError(`not ${op.done}: the service answered ${result.status}: ${said.reason}`, result.status, result.data);
  if (said.kind === 'confirmed') return result;
  const saw = unconfirming(result);
  const unconfirmed = new UnreadableAnswerError(`the service answered ${saw}, which does not confirm it was ${op.done}`, result.status, saw, result.data);
  return decidedByReadBack(client, operationId, options, sent, unconfirmed);
}
