/**
 * Response bodies: parsing and envelope unwrapping. The spec does not show the
 * envelope's fields, so any of the common families is read: the data under a
 * `data`, `result`, `payload`, `content`, `body` or `items` key beside only
 * envelope fields (`success`, `message`, `code`, `status`, `errors`, …), or no
 * envelope at all (the body is the data). A record is never taken for an
 * envelope: it has fields an envelope does not (its `id`).
 */
import { InvalidAnswerError } from '../errors.js';
import { NestedTooDeepError, parseJson } from '../json/json-parse.js';
import { TooDeepAnswer } from './nesting.js';
import type { FailureForm, WireProfile } from '../contract/wire-profile.js';
import { flag, RESULT_FIELDS, type StatedFailure, statedFailure, statesSuccess } from './failure-signals.js';
import { isObject } from './objects.js';

export { isObject };

/** Parses a response body: undefined when empty, JSON when it is JSON (a `TooDeepAnswer` when nested too deep to read), else the text. */
export function parseBody(body: Buffer, contentType: string | undefined, strict: boolean): unknown {
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  try {
    return parseJson(text);
  } catch (error) {
    if (error instanceof NestedTooDeepError) return new TooDeepAnswer();
    // A success that claims JSON and is not is the service's fault; error bodies are read leniently.
    if (strict && contentType?.includes('json')) {
      throw new InvalidAnswerError(`the service answered invalid JSON: ${(error as Error).message}`, { detail: text.slice(0, 2000) });
    }
    return text;
  }
}

/** Keys that hold an envelope's data, in the order they are looked for. */
const DATA_KEYS = ['data', 'result', 'payload', 'content', 'body', 'items'] as const;

/** Fields only an envelope carries beside its data: one of them and a data key make an envelope whatever else it holds. */
const ENVELOPE_MARKERS = ['success', 'ok', 'code', 'msg', 'message', 'status', 'errors', 'error'] as const;

export interface Unwrapped {
  data: unknown;
  message?: string;
  /** The envelope says outright that the call succeeded (`success: true`, code 0, status OK). */
  success?: true;
  /** The failure the envelope states inside a 2xx (`success: false`, `{"code": 500}`, `status: ERROR`, …). */
  failure?: StatedFailure;
  /** The wire profile names an envelope key and the answer does not carry it: no data, whatever else it says. */
  keyMissing?: string;
}

/**
 * Splits an envelope into data, message and verdict; a body that is not an
 * envelope is the data. For a page `content` is the page's own field, not an
 * envelope key (`inPage`).
 */
export function unwrapEnvelope(body: unknown, options: { inPage?: boolean } = {}): Unwrapped {
  if (!isObject(body)) return { data: body };
  const keys = options.inPage ? DATA_KEYS.filter((key) => key !== 'content') : DATA_KEYS;
  const dataKey = keys.find((key) => key in body);
  const names = Object.keys(body);
  const envelopeOnly = names.every((name) => name === dataKey || RESULT_FIELDS.has(name));
  // Beside a data key and a verdict field an envelope may carry extras of its own (`meta`, `version`); a record has its `id`.
  const markedEnvelope = dataKey !== undefined && !('id' in body) && ENVELOPE_MARKERS.some((name) => name in body);
  if (names.length === 0 || !(envelopeOnly || markedEnvelope)) return { data: body };
  const message = [body.message, body.msg].find((value): value is string => typeof value === 'string');
  const failure = statedFailure(body);
  return {
    data: dataKey === undefined ? undefined : body[dataKey],
    ...(message !== undefined ? { message } : {}),
    ...(failure ? { failure } : statesSuccess(body) ? { success: true as const } : {}),
  };
}

/** The message and verdict of an envelope's own fields (everything but its data). */
function verdictOf(fields: Record<string, unknown>): Omit<Unwrapped, 'data'> {
  const message = [fields.message, fields.msg].find((value): value is string => typeof value === 'string');
  const failure = statedFailure(fields);
  return {
    ...(message !== undefined ? { message } : {}),
    ...(failure ? { failure } : statesSuccess(fields) ? { success: true as const } : {}),
  };
}

/**
 * The failure a profile's refusal form states in `body`, read even when the body
 * carries fields of its own beside it (`timestamp`, `traceId`, a service's extras),
 * which the general rules take for data. A record's own `code` and `status` stay
 * its own (`record`).
 */
function formFailure(body: Record<string, unknown>, form: FailureForm | undefined, record: boolean): StatedFailure | undefined {
  if (form === undefined || form === 'problem') return undefined;
  const stated = statedFailure(body, { record });
  if (!stated) return undefined;
  switch (form) {
    case 'success-false':
      return flag(body.success) === false || flag(body.ok) === false ? stated : undefined;
    case 'status-error':
      return typeof body.status === 'string' || Array.isArray(body.errors) ? stated : undefined;
    case 'code-msg':
      return body.code !== undefined || body.errorCode !== undefined ? stated : undefined;
  }
}

/**
 * Splits an answer by the environment's wire profile (`pla config detect`): the
 * general rules first (a failure they see is a failure), then the profile's
 * refusal form, then its envelope, for the answers that have one (`enveloped`:
 * the spec's Response*, ResponseList*, ResponseVoid): the data is under the key it names, and an
 * answer without that key has none (`keyMissing`); with `none` the body is the
 * data, unless it is made only of envelope fields (`{"success": true}`).
 */
export function unwrapByProfile(body: unknown, profile: WireProfile, options: { inPage?: boolean; enveloped: boolean }): Unwrapped {
  const general = unwrapEnvelope(body, options);
  // Pages, counts and schemas are the service's own objects (the spec's Page* and maps), not Response* envelopes.
  const envelope = options.enveloped ? profile.envelope : undefined;
  if (general.failure) return general;
  if (!isObject(body)) return typeof envelope === 'object' ? { data: undefined, keyMissing: envelope.key } : general;
  const failure = formFailure(body, profile.failure, envelope === undefined || envelope === 'none' ? 'id' in body : false);
  if (failure) return { data: undefined, failure };
  if (envelope === undefined) return general;
  const names = Object.keys(body);
  const envelopeOnly = names.length > 0 && names.every((name) => RESULT_FIELDS.has(name));
  if (envelope === 'none') return envelopeOnly ? general : { data: body };
  const { [envelope.key]: data, ...fields } = body;
  if (!(envelope.key in body)) return { data: undefined, ...verdictOf(fields), keyMissing: envelope.key };
  return { data, ...verdictOf(fields) };
}
