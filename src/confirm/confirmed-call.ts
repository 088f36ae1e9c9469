/**
 * One write, confirmed: its answer when the answer confirms it; else (an answer
 * pla cannot read, such as a sign-in page answered 200, or no record where one
 * was due) the record read back decides: done as asked, not done (a refusal), or
 * unknown (`OutcomeUnknownError`). Never "done" on an answer that did not say so.
 */
import type { CallOptions, CallResult, PlaClient } from '../client/types.js';
import { operation, type OperationId } from '../contract/operations.js';
import { OutcomeUnknownError, RejectedError, UnreadableAnswerError } from '../errors.js';
import { readBack } from './read-back.js';

/** Calls the write `operationId`; `sent` is the id or record it changes (what reading back checks). */
export async function confirmedCall(client: PlaClient, operationId: OperationId, options: CallOptions, sent: unknown): Promise<CallResult> {
  try {
    return await client.call(operationId, options);
  } catch (error) {
    const done = operation(operationId).done;
    if (!(error instanceof UnreadableAnswerError) || done === undefined) throw error;
    const verdict = await readBack(client, operationId, sent, options.signal);
    switch (verdict.kind) {
      case 'confirmed':
        return { status: error.status, data: verdict.record, message: `the answer was ${error.saw}; ${verdict.how}`, headers: {} };
      case 'not-applied':
        throw new RejectedError(`not ${done}: ${error.message}; ${verdict.reason}`, error.status, error.problem, error.request ? { request: error.request } : undefined);
      case 'unknown':
        throw new OutcomeUnknownError(`outcome unknown: ${error.message}; ${verdict.reason}`, { detail: error.problem });
    }
  }
}
