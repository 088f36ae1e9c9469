/** The HTTP client: one object owning transport, envelopes, pages, retries and errors. */
export { createClient } from './create-client.js';
export type * from './types.js';
