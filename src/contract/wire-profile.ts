/**
 * The wire form of a service: what the interface document leaves "not shown"
 * (envelope, failure bodies, bulk answers, a missing record's answer, pages).
 * The client reads every form it knows whatever the profile says (rules in
 * src/client/answer.ts); the local server answers in the form a profile names
 * (`pla server start --wire PROFILE`), so scripts can be rehearsed against the
 * shapes of the real service. Plain data: the command declarations read the names.
 */

/**
 * The envelope around single, list and void answers: `key` holds the data (`data`,
 * `result`, `payload`, …), with a `success` flag and a `message` beside it when
 * asked; `none` answers the data bare (a void answer has no body).
 */
export type EnvelopeForm = 'none' | { key: string; success?: boolean; message?: boolean; code?: boolean };

/**
 * How a refusal of an operation is answered:
 * - `problem` its HTTP status with an RFC 9457 problem body
 * - `success-false` 200 `{"success": false, "message": …}` (no data key: Jackson leaves out nulls)
 * - `status-error` 200 `{"status": "ERROR", "errors": [{"message": …}]}`
 * - `code-msg` 200 `{"code": <status>, "msg": …}`
 */
export type FailureForm = 'problem' | 'success-false' | 'status-error' | 'code-msg';

/**
 * How a bulk request is answered:
 * - `all-or-nothing` applied whole or refused whole (one status for the request)
 * - `per-item` each item applied on its own, the answer a list with a result per item
 *   (`{"id": 10, "cancelled": false, "reason": …}`, a failed record `{"success": false, …}`)
 */
export type BulkItemsForm = 'all-or-nothing' | 'per-item';

export interface WireProfile {
  envelope?: EnvelopeForm;
  failure?: FailureForm;
  bulkItems?: BulkItemsForm;
  /** A read of a missing id answers 200 with no record (`{"data": null}`) instead of 404. */
  softNotFound?: boolean;
}

/** Every field of a profile filled in. */
export type FullWireProfile = Required<WireProfile>;

/** The local server's own form: `{success, message, data}`, problems with their status, bulk all or nothing. */
const PLA: FullWireProfile = { envelope: { key: 'data', success: true, message: true }, failure: 'problem', bulkItems: 'all-or-nothing', softNotFound: false };

/**
 * Named profiles: plausible forms of a Spring-style service. Each says in its name
 * what it rehearses.
 */
export const WIRE_PROFILES = {
  /** Today's local server. */
  pla: PLA,
  /** Records and lists bare, no envelope; errors as problems. */
  bare: { ...PLA, envelope: 'none' },
  /** `{"success": true, "result": …}`, refusals inside a 200 as `{"success": false, "message": …}`. */
  'spring-result': { ...PLA, envelope: { key: 'result', success: true }, failure: 'success-false' },
  /** `{"payload": …}` alone, per-item bulk results. */
  'payload-per-item': { ...PLA, envelope: { key: 'payload' }, bulkItems: 'per-item' },
  /** `{"code": 0, "msg": …, "data": …}`, refusals as 200 `{"code": 409, "msg": …}`, soft 404s. */
  'code-msg': { ...PLA, envelope: { key: 'data', code: true }, failure: 'code-msg', softNotFound: true },
  /**
   * The hardest to read right: refusals in 200 `{"success": false, "message": …}`,
   * a missing record 200 `{"data": null}`, bulk answers item by item.
   */
  'soft-fail': { ...PLA, failure: 'success-false', bulkItems: 'per-item', softNotFound: true },
} as const satisfies Record<string, FullWireProfile>;

export type WireProfileName = keyof typeof WIRE_PROFILES;

/** Whether `name` names a built-in profile. */
export function isWireProfileName(name: string): name is WireProfileName {
  return Object.hasOwn(WIRE_PROFILES, name);
}

/** A profile with the local server's own form wherever it says nothing. */
export function fullProfile(profile: WireProfile): FullWireProfile {
  return { ...PLA, ...profile };
}
