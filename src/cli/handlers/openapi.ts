/** `pla openapi`: the OpenAPI document derived from the contract, on stdout. */
import { createOpenApiDocument } from '../../contract/openapi.js';
import { writeOut } from '../../io/output/write-out.js';
import type { Invocation } from '../invocation.js';

/** Prints the document, naming the base URL under `servers` when one is given. */
export async function printOpenApi(invocation: Invocation): Promise<void> {
  const serverUrl = invocation.opts.baseUrl ?? invocation.env.PLA_BASE_URL;
  const { query } = invocation.opts;
  let shown: unknown = createOpenApiDocument({ serverUrl });
  if (query) {
    const { checkQuery, runQuery } = await import('../../io/output/query.js');
    await checkQuery(query);
    shown = await runQuery(query, shown);
  }
  await writeOut(invocation.io.stdout, `${JSON.stringify(shown, null, 2)}\n`);
}
