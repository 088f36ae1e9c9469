/**
 * Response bodies: parsing and envelope unwrapping. The spec does not show the
 * envelope's fields, so anything shaped like `{data, success|message}` counts as one
 * and everything else is taken as the data itself; this also fits a service that
 * chose differently from the local server.
 */
import { InvalidAnswerError } from '../errors.js';
import { parseJson } from '../json/json-parse.js';

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses a response body: undefined when empty, JSON when it is JSON, else the text. */
export function parseBody(body: Buffer, contentType: string | undefined, strict: boolean): unknown {
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  try {
    return parseJson(text);
  } catch (error) {
    // A success that claims JSON and is not is the service's fault; error bodies are read leniently.
    if (strict && contentType?.includes('json')) {
      throw new InvalidAnswerError(`the service answered invalid JSON: ${(error as Error).message}`, { detail: text.slice(0, 2000) });
    }
    return text;
  }
}

export interface Unwrapped {
  data: unknown;
  message?: string;
  /** The envelope's `success` flag, when it has one. */
  success?: boolean;
}

/** Splits an envelope into data and message; a body that is not an envelope is the data. */
export function unwrapEnvelope(body: unknown): Unwrapped {
  if (!isObject(body) || !('data' in body) || !('success' in body || 'message' in body)) return { data: body };
  return {
    data: body.data,
    ...(typeof body.message === 'string' ? { message: body.message } : {}),
    ...(typeof body.success === 'boolean' ? { success: body.success } : {}),
  };
}
