/** `pla openapi`: the OpenAPI document derived from the contract, on stdout. */
import { createOpenApiDocument } from '../../contract/openapi.js';
import type { Invocation } from '../lazy-action.js';

export async function printOpenApi(invocation: Invocation): Promise<void> {
  const serverUrl = (invocation.opts.baseUrl as string | undefined) ?? process.env.PLA_BASE_URL;
  process.stdout.write(`${JSON.stringify(createOpenApiDocument({ serverUrl }), null, 2)}\n`);
}
