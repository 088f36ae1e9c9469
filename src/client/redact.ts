/**
 * Last line of defence for the key: a service may echo request headers in an error
 * body, so errors are scrubbed of the key before they leave the client.
 */
import type { PlaError } from '../errors.js';
import { maskKey } from '../config/mask-key.js';

/** Replaces every occurrence of `secret` in the error's message, hint and detail with its mask. */
export function redactSecret<E extends PlaError>(error: E, secret: string): E {
  const mask = maskKey(secret);
  const scrub = (text: string) => text.split(secret).join(mask);
  error.message = scrub(error.message);
  if (error.hint) error.hint = scrub(error.hint);
  if (error.detail !== undefined) {
    const text = JSON.stringify(error.detail);
    if (text?.includes(secret)) error.detail = JSON.parse(scrub(text)) as unknown;
  }
  return error;
}
