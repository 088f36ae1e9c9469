/**
 * Last line of defence for the key: a service may echo request headers in an error
 * body, so errors are scrubbed of the key before they leave the client.
 */
import { ApiError, type PlaError } from '../errors.js';
import { redactSecrets } from '../contract/secrets.js';
import { jsonText } from '../json/json-text.js';
import { parseJson } from '../json/json-parse.js';

/**
 * Replaces every occurrence of `secret` in the error's message, hint, detail and
 * (for an ApiError) problem body with its mask. Both bodies: `--verbose` prints
 * the problem, and the two are separate references once one is scrubbed.
 */
export function redactSecret<E extends PlaError>(error: E, secret: string): E {
  const scrub = (text: string) => redactSecrets(text, [secret]);
  const scrubValue = (value: unknown): unknown => {
    const text = jsonText(value) as string | undefined;
    return text?.includes(secret) ? parseJson(scrub(text)) : value;
  };
  error.message = scrub(error.message);
  if (error.hint) error.hint = scrub(error.hint);
  if (error.detail !== undefined) error.detail = scrubValue(error.detail);
  if (error instanceof ApiError && error.problem !== undefined) {
    // `problem` is readonly to its users; the scrubbed copy replaces it here only.
    Object.defineProperty(error, 'problem', { value: scrubValue(error.problem) });
  }
  return error;
}
