/**
 * `pla server`: the local server (start) and its administration (keys, health,
 * log, reset) through the running server's `/_admin` endpoints. Declared cheaply:
 * the server code loads only when `pla server start` runs.
 */
import { Option } from '@commander-js/extra-typings';
import { runs } from '../src/cli/invocation.js';
import { WIRE_PROFILES } from '../src/contract/wire-profile.js';
import { DEFAULT_SERVER_OPTIONS as D, DEFAULT_TASK_STEP_SECONDS, REQUEST_LOG_LIMITS, formatByteSize } from '../src/server/options.js';
import { commaList } from './option-parsers.js';
import { examples } from './options.js';
import { type Tree, tree as newTree } from './tree.js';

/** The server handlers, loaded when a verb runs. */
const handlers = () => import('../src/cli/handlers/server.js');

function addStartCommand(tree: Tree): void {
  const start = tree
    .command('start')
    .description('run the whole service interface locally, on a JSON-file store or a shared PostgreSQL')
    .option('--port <port>', 'port to listen on (0 = any free port)', String(D.port))
    .option('--host <host>', 'address to listen on', D.host)
    .option('--data <dir>', 'data folder (JSON-file store, images, outbox)', D.dataDir)
    .option(
      '--env-name <name>',
      'the pla environment this server feeds, also given as -e (default: local for the default folder and port, else local-<folder>)',
    )
    .option('--store <url>', 'postgres://… to keep the data in PostgreSQL, shared by every server on it (else PLA_STORE_URL, else pla config set-store)')
    .option(
      '--store-pool-size <n>',
      `connections to PostgreSQL this process opens at most (default ${D.storePoolSize}; processes × size must fit the database's max_connections)`,
    )
    .option('--no-seed', 'start a fresh data folder empty (no demo data), also on reset')
    .option(
      '--drop-journal-from <line>',
      'start a data folder whose journal is damaged at this line (as the refusal named it) from the lines before it; the rest is kept in a file beside the journal',
    )
    .option('--lenient', 'accept any type in the declared record fields (name, inUse, …); by default a wrong type is a 400, as the service would refuse it')
    .option('--max-page-size <n>', `largest page size accepted (default ${D.maxPageSize})`)
    .option('--max-bulk-items <n>', `records or ids one bulk request may carry; more is a 413 (default ${D.maxBulkItems})`)
    .option('--max-body <size>', `largest request body, e.g. 10mb (default ${formatByteSize(D.maxBodyBytes)})`)
    .option('--max-image <size>', `largest image upload, e.g. 5mb (default ${formatByteSize(D.maxImageBytes)})`)
    .option('--rate-limit <n>', `requests per second per key, 0 = off; on PostgreSQL one limit shared by every server on the database (default ${D.rateLimit})`)
    .option('--latency <ms>', `delay added to every API request (default ${D.latencyMs})`)
    .option('--fail-rate <p>', `probability 0–1 of an injected 500 (default ${D.failRate})`)
    .option('--simulate-tasks [seconds]', `advance transfer tasks by themselves every N seconds (default ${DEFAULT_TASK_STEP_SECONDS})`)
    .option('--smtp <url>', 'send e-mail through this SMTP server instead of <data>/outbox/')
    .option('--max-connections <n>', `open connections at most; more are answered 503 (default ${D.maxConnections})`)
    .option(
      '--max-connections-per-address <n>',
      `open connections at most from one client address; more are answered 503 (default ${D.maxConnectionsPerAddress})`,
    )
    .option('--header-timeout <s>', `seconds to receive a request's headers; a slower one is cut with 408 (default ${D.headerTimeoutMs / 1000})`)
    .option('--request-timeout <s>', `seconds to receive a whole request; a slower one is cut with 408 (default ${D.requestTimeoutMs / 1000})`)
    .option('--write-timeout <s>', `seconds a client may take to read a response before it is disconnected (default ${D.writeTimeoutMs / 1000})`)
    .option(
      '--wire <profile>',
      `answer in another wire form of the real service: ${Object.keys(WIRE_PROFILES).join(', ')}, a JSON profile file, or settings such as soft-fail,envelope.key=result or page.shape=flat,page.base=1 (default pla; docs/real-service.md)`,
    )
    .addOption(new Option('--log-format <format>', 'the line per request on stderr: text or json lines').choices(['text', 'json'] as const))
    .option('--no-request-log', 'no line per request on stderr (pla server log still has them)')
    .option('-d, --detach', 'run in the background: prints its URL once it listens; its pid and log go where `pla server status` finds them')
    // The detached server is this command again with --no-detach last: the last of the two wins, whatever form -d took (-d, --detach).
    .addOption(new Option('--no-detach', 'run in the foreground (the default)').hideHelp())
    // Also added by --detach: the child's output is a log file, so a first start's admin key goes to the caller's terminal instead.
    .addOption(new Option('--detached-child', 'started by --detach: no secret in the output').hideHelp());
  examples(
    start,
    'pla server start',
    'pla server start --detach   # in the background: pla server status | stop | log --follow',
    'URL=$(pla server start --detach -q --port 0)   # -q: the URL alone',
    'pla server start --port 0 --data /tmp/pla --no-seed   # feeds environment local-pla',
    'pla server start --port 4020 --data ./fin2 --env-name fin2',
    'pla server start --log-format json',
    'pla server start --no-request-log',
    'pla server start --rate-limit 5 --fail-rate 0.1 --simulate-tasks',
    'pla server start --host 0.0.0.0 --store postgres://pla@db.internal:5432/pla',
    'pla server start --wire page.shape=flat,page.base=1,page.maxSize=100   # rehearse a one-indexed Spring service',
    'pla server start --wire bare,page.shape=odata                          # OData v4 listings (also link, odata-v2, hal, items, cursor)',
  );
  runs(start, async () => (await handlers()).start);
  const migrate = tree
    .command('migrate')
    .description('apply pending schema migrations to the PostgreSQL store (server start does it too)')
    .option('--store <url>', 'postgres://… (else PLA_STORE_URL, else pla config set-store)');
  examples(migrate, 'pla server migrate --store postgres://pla@localhost:5432/pla');
  runs(migrate, async () => (await handlers()).migrate);
}

function addKeysCommand(tree: Tree): void {
  const keys = tree.command('keys').description('API keys of the running local server');
  const create = keys
    .command('create')
    .description('create a key; prints it once')
    .requiredOption('--name <name>', 'a name for the key')
    .option('--permissions <a,b>', 'e.g. determinations:read,tasks:write, admin or * (default: read and write on every resource)', commaList)
    .option('-e, --env <name>', "the environment whose server gets the key, and the key's environment (default: the chosen one, as for every command)")
    .option('--data <dir>', 'no server running: write an admin key straight into this data folder (yours, server stopped)');
  examples(
    create,
    'pla server keys create --name ci --permissions determinations:read,tasks:read',
    'pla server keys create --name ci -e local-fin2',
    'pla server keys create --data ./pla-data --name recovery   # lost the admin key',
  );
  runs(create, async () => (await handlers()).createKey);
  runs(
    examples(keys.command('list').description('list keys (masked)'), 'pla server keys list', 'pla server keys list -e local-fin2 -o json'),
    async () => (await handlers()).listKeys,
  );
  runs(
    examples(keys.command('revoke <id>').description('revoke a key; requests with it get 401 from then on'), 'pla server keys revoke 3'),
    async () => (await handlers()).revokeKey,
  );
}

/** Declares the `pla server` tree; the server code loads only when a verb runs. */
export function createServerCommand() {
  const tree = newTree('server').description('run and administer the local server');
  addStartCommand(tree);
  addKeysCommand(tree);
  runs(
    examples(tree.command('health').description("the running server's health (no key needed)"), 'pla server health', 'pla server health -e local-fin2'),
    async () => (await handlers()).health,
  );
  const log = tree
    .command('log')
    .description('recent requests with their bodies (keys masked)')
    .option('--limit <n>', `how many (default ${REQUEST_LOG_LIMITS.shown}, at most ${REQUEST_LOG_LIMITS.most})`)
    .option('-f, --follow', 'keep printing requests as they come, until Ctrl-C');
  examples(log, 'pla server log --limit 20', 'pla server log --follow -o ndjson', "pla server log -o json --query '[?status>=`400`]'");
  runs(log, async () => (await handlers()).requestLog);
  runs(
    examples(tree.command('status').description('the servers started with --detach: environment, pid, running or stopped, URL, log file'), 'pla server status'),
    async () => (await import('../src/cli/handlers/server-detached.js')).status,
  );
  runs(
    examples(
      tree.command('stop').description('stop the server started with --detach that feeds the chosen environment (-e, PLA_ENV, config use)'),
      'pla server stop',
      'pla server stop -e local-fin2',
    ),
    async () => (await import('../src/cli/handlers/server-detached.js')).stop,
  );
  const reset = tree
    .command('reset')
    .description('delete all data and re-seed (keys are kept)')
    .option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)');
  examples(reset, 'pla server reset --yes');
  runs(reset, async () => (await handlers()).reset);
  return tree;
}
