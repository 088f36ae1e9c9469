/** `pla config`: environments, base URLs, API keys, proxies, CA files and wire profiles, and the local server's store (kept in conf, file mode 0600). */
import { runs } from '../src/cli/invocation.js';
import { examples } from './options.js';
import { tree as newTree } from './tree.js';

/** The config handlers, loaded when a config verb runs. */
const handlers = () => import('../src/cli/handlers/config.js');

/** Declares the `pla config` tree; handlers load only when a verb runs. */
export function createConfigCommand() {
  const tree = newTree('config').description('environments, base URLs, API keys, proxies and CA files');
  examples(
    runs(
      tree.command('set-key').description('store the API key of an environment (-e/--env; from stdin when piped, else a hidden prompt)'),
      async () => (await handlers()).setKey,
    ),
    'pla config set-key --env qa            # prompts, nothing echoed',
    'pla config set-key --env qa < key.txt',
  );
  examples(
    runs(tree.command('set-url <url>').description('set the base URL of an environment (-e/--env)'), async () => (await handlers()).setUrl),
    'pla config set-url https://pla-qa.example.com --env qa',
  );
  examples(
    runs(
      tree
        .command('set-proxy [url]')
        .description('send an environment’s requests through a forward proxy (-e/--env); wins over HTTPS_PROXY/HTTP_PROXY, NO_PROXY still applies')
        .option('--unset', 'remove the environment’s proxy'),
      async () => (await handlers()).setProxy,
    ),
    'pla config set-proxy http://proxy.corp.example:3128 --env qa',
    'pla config set-proxy http://ana:secret@proxy.corp.example:3128 --env qa   # password never shown',
    'pla config set-proxy --unset --env qa',
  );
  examples(
    runs(
      tree
        .command('set-ca [file]')
        .description('trust the certificate authorities in a PEM file for an environment (-e/--env), besides the usual ones')
        .option('--unset', 'trust only the usual CAs again'),
      async () => (await handlers()).setCa,
    ),
    'pla config set-ca /etc/ssl/certs/ca-certificates.crt --env qa',
    'pla config set-ca --unset --env qa',
    'NODE_EXTRA_CA_CERTS=./corp-root.pem pla det list   # the same for one run, every environment',
  );
  examples(
    runs(
      tree
        .command('set-store [url]')
        .description(
          'the PostgreSQL store pla server start and migrate use when neither --store nor PLA_STORE_URL names one (one per machine, not per environment; password never shown)',
        )
        .option('--unset', 'keep the data in the data folder again (JSON-file store)'),
      async () => (await handlers()).setStore,
    ),
    'pla config set-store postgres://pla:secret@db.internal:5432/pla_stub',
    'pla config set-store --unset',
  );
  /** The wire profile handlers, loaded when detect or set-wire runs. */
  const wireHandlers = () => import('../src/cli/handlers/config-wire.js');
  examples(
    runs(
      tree
        .command('detect')
        .description(
          'find how the environment’s service pages, wraps answers and says "not found", with read-only calls, and store it as its wire profile (-e/--env)',
        )
        .option('--dry-run', 'print what was found, store nothing'),
      async () => (await wireHandlers()).detect,
    ),
    'pla config detect --env qa',
    'pla config detect --env production --dry-run',
  );
  examples(
    runs(
      tree
        .command('set-wire')
        .argument('[settings...]', 'name=value settings, e.g. page.base=1')
        .description('set the environment’s wire profile by hand (-e/--env): name=value settings merged into the stored ones')
        .option('--replace', 'start from an empty profile instead of the stored one')
        .option('--unset', 'forget the profile: answers are read by pla’s rules'),
      async () => (await wireHandlers()).setWire,
    ),
    'pla config set-wire page.base=1 page.maxSize=100 --env qa',
    'pla config set-wire envelope.key=result envelope.success=true softNotFound=true --env qa',
    'pla config set-wire --unset --env qa',
  );
  examples(
    runs(tree.command('use <env>').description('make an environment the current one'), async () => (await handlers()).use),
    'pla config use qa',
  );
  examples(
    runs(tree.command('remove <env>').description('forget everything stored for an environment (key included)'), async () => (await handlers()).remove),
    'pla config remove staging',
  );
  examples(
    runs(
      tree.command('rename <old> <new>').description('rename an environment, keeping its URL, key, proxy and CA file'),
      async () => (await handlers()).rename,
    ),
    'pla config rename qa qa-eu',
  );
  examples(
    runs(
      tree
        .command('export')
        .description('print the stored environments as JSON; API keys and proxy passwords are left out unless --with-keys')
        .option('--with-keys', 'include API keys and proxy passwords in plain text (asks first)')
        .option('-y, --yes', 'do not ask before including them (needed when stdin is not a terminal)')
        .option('--out <file>', 'write to this file (created 0600, never through a symbolic link) instead of stdout'),
      async () => (await handlers()).exportConfig,
    ),
    'pla config export > pla-envs.json',
    'pla config export --with-keys --yes --out pla-envs-with-keys.json',
    'pla config export --with-keys --yes > pla-envs-with-keys.json',
  );
  examples(
    runs(
      tree.command('import <file>').description('merge environments from a `pla config export` file (- for stdin); fields in the file replace stored ones'),
      async () => (await handlers()).importConfig,
    ),
    'pla config import pla-envs.json',
  );
  examples(
    runs(
      tree.command('show').description('environments with base URLs, masked keys, proxies, CA files, wire profiles and where each comes from'),
      async () => (await handlers()).show,
    ),
    'pla config show',
  );
  examples(
    runs(
      tree.command('protect <env>').description('runs on this environment always record the records before they change (production is protected by default)'),
      async () => (await handlers()).protect,
    ),
    'pla config protect qa',
  );
  examples(
    runs(tree.command('unprotect <env>').description('stop protecting an environment'), async () => (await handlers()).unprotect),
    'pla config unprotect qa',
  );
  examples(
    runs(tree.command('path').description('print the config file path'), async () => (await handlers()).path),
    'pla config path',
  );
  return tree;
}
