/**
 * One write, confirmed: its answer when the answer confirms it; else (an answer
 * pla cannot read, such as a sign-in page answered 200, or no record where one
 * was due) the record read back decides: done as asked, not done (a refusal), or
 * unknown (the error, marked `outcomeUnknown`). Never "done" on an answer that did not say so.
 */
import type { CallOptions, CallResult, PlaClient } from '../client/types.js';
import { operation, type OperationId } from '../contract/operations.js';
import { RejectedError, UnreadableAnswerError } from '../errors.js';
import { judgeElement } from './item-results.js';
import { readBack } from './read-back.js';

/** Calls the write `operationId`; `sent` is the id or record it changes (what reading back checks). */
export async function confirmedCall(client: PlaClient, operationId: OperationId, options: CallOptions, sent: unknown): Promise<CallResult> {
  let result: CallResult;
  try {
    result = await client.call(operationId, options);
  } catch (error) {
    const done = operation(operationId).done;
    if (!(error instanceof UnreadableAnswerError) || done === undefined) throw error;
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
  // The answer may be a result rather than an envelope (`{"id": 7, "cancelled": false, "reason": …}`): read it as one.
  const op = operation(operationId);
  const said = op.done === undefined || result.data === undefined ? undefined : judgeElement(op, sent, result.data);
  if (said?.kind === 'failed')
    throw new RejectedError(`not ${String(op.done)}: the service answered ${result.status}: ${said.reason}`, result.status, result.data);
  return result;
}
