/** `pla api METHOD PATH`: a raw call, for what the commands do not cover. */
import { runs } from '../src/cli/invocation.js';
import { collect } from './option-parsers.js';
import { examples } from './options.js';
import { tree } from './tree.js';

/** Declares `pla api`; its handler loads only when it runs. */
export function createApiCommand() {
  const api = tree('api')
    .argument('<method>', 'GET, POST, PUT, DELETE …')
    .argument('<path>', 'path relative to the base URL')
    .description('call any path of the service; the response envelope is kept')
    .option('--data <json>', 'JSON body')
    .option('--file <path>', 'JSON body from a file (- for stdin)')
    .option('--param <key=value>', 'query parameter, repeatable (--query is the JMESPath on the output, as everywhere)', collect);
  examples(
    api,
    'pla api GET /api/v1/asset-transaction-type-determinations --param page=0 --param size=5',
    "pla api GET /api/v1/asset-transaction-type-determinations --query 'data[].code'",
  );
  return runs(api, async () => (await import('../src/cli/handlers/api.js')).call);
}
