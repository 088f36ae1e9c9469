/** `pla openapi`: the OpenAPI document derived from the contract, on stdout. */
import { createOpenApiDocument } from '../../contract/openapi.js';
import { writeOut } from '../../io/output/write-out.js';
import type { Invocation } from '../invocation.js';

/** Prints the document, naming the base URL under `servers` when one is given. */
export async function printOpenApi(invocation: Invocation): Promise<void> {
  const serverUrl = invocation.opts.baseUrl ?? process.env.PLA_BASE_URL;
  await writeOut(invocation.io.stdout, `${JSON.stringify(createOpenApiDocument({ serverUrl }), null, 2)}\n`);
}
