/** `pla config`: environments, base URLs, API keys, proxies, CA files and wire profiles, and the local server's store (kept in conf, file mode 0600). */
import { Command } from 'commander';
import { declareAction } from './actions.js';
import { examples } from './options.js';

/** Declares the `pla config` tree; handlers load only when a verb runs. */
export function createConfigCommand(): Command {
  const tree = new Command('config').description('environments, base URLs, API keys, proxies and CA files');
  examples(
    declareAction(tree.command('set-key').description('store the API key of an environment (-e/--env; from stdin when piped, else a hidden prompt)'), 'config.setKey'),
    'pla config set-key --env qa            # prompts, nothing echoed',
    'pla config set-key --env qa < key.txt',
  );
  examples(
    declareAction(tree.command('set-url <url>').description('set the base URL of an environment (-e/--env)'), 'config.setUrl'),
    'pla config set-url https://pla-qa.example.com --env qa',
  );
  examples(
    declareAction(
      tree
        .command('set-proxy [url]')
        .description('send an environment’s requests through a forward proxy (-e/--env); wins over HTTPS_PROXY/HTTP_PROXY, NO_PROXY still applies')
        .option('--unset', 'remove the environment’s proxy'),
      'config.setProxy',
    ),
    'pla config set-proxy http://proxy.corp.example:3128 --env qa',
    'pla config set-proxy http://ana:secret@proxy.corp.example:3128 --env qa   # password never shown',
    'pla config set-proxy --unset --env qa',
  );
  examples(
    declareAction(
      tree
        .command('set-ca [file]')
        .description('trust the certificate authorities in a PEM file for an environment (-e/--env), besides the usual ones')
        .option('--unset', 'trust only the usual CAs again'),
      'config.setCa',
    ),
    'pla config set-ca /etc/ssl/certs/ca-certificates.crt --env qa',
    'pla config set-ca --unset --env qa',
    'NODE_EXTRA_CA_CERTS=./corp-root.pem pla det list   # the same for one run, every environment',
  );
  examples(
    declareAction(
      tree
        .command('set-store [url]')
        .description('the PostgreSQL store pla server start and migrate use when neither --store nor PLA_STORE_URL names one (one per machine, not per environment; password never shown)')
        .option('--unset', 'keep the data in the data folder again (JSON-file store)'),
      'config.setStore',
    ),
    'pla config set-store postgres://pla:secret@db.internal:5432/pla_stub',
    'pla config set-store --unset',
  );
  examples(
    declareAction(
      tree
        .command('detect')
        .description('find how the environment’s service pages, wraps answers and says "not found", with read-only calls, and store it as its wire profile (-e/--env)')
        .option('--dry-run', 'print what was found, store nothing'),
      'config.detect',
    ),
    'pla config detect --env qa',
    'pla config detect --env production --dry-run',
  );
  examples(
    declareAction(
      tree
        .command('set-wire [settings...]')
        .description('set the environment’s wire profile by hand (-e/--env): name=value settings merged into the stored ones')
        .option('--replace', 'start from an empty profile instead of the stored one')
        .option('--unset', 'forget the profile: answers are read by pla’s rules'),
      'config.setWire',
    ),
    'pla config set-wire page.base=1 page.maxSize=100 --env qa',
    'pla config set-wire envelope.key=result envelope.success=true softNotFound=true --env qa',
    'pla config set-wire --unset --env qa',
  );
  examples(declareAction(tree.command('use <env>').description('make an environment the current one'), 'config.use'), 'pla config use qa');
  examples(
    declareAction(tree.command('remove <env>').description('forget everything stored for an environment (key included)'), 'config.remove'),
    'pla config remove staging',
  );
  examples(
    declareAction(tree.command('rename <old> <new>').description('rename an environment, keeping its URL, key, proxy and CA file'), 'config.rename'),
    'pla config rename qa qa-eu',
  );
  examples(
    declareAction(
      tree
        .command('export')
        .description('print the stored environments as JSON; API keys and proxy passwords are left out unless --with-keys')
        .option('--with-keys', 'include API keys and proxy passwords in plain text (asks first)')
        .option('-y, --yes', 'do not ask before including them (needed when stdin is not a terminal)'),
      'config.export',
    ),
    'pla config export > pla-envs.json',
    'pla config export --with-keys --yes > pla-envs-with-keys.json',
  );
  examples(
    declareAction(
      tree.command('import <file>').description('merge environments from a `pla config export` file (- for stdin); fields in the file replace stored ones'),
      'config.import',
    ),
    'pla config import pla-envs.json',
  );
  examples(
    declareAction(tree.command('show').description('environments with base URLs, masked keys, proxies, CA files, wire profiles and where each comes from'), 'config.show'),
    'pla config show',
  );
  examples(
    declareAction(tree.command('protect <env>').description('runs on this environment always record the records before they change (production is protected by default)'), 'config.protect'),
    'pla config protect qa',
  );
  examples(declareAction(tree.command('unprotect <env>').description('stop protecting an environment'), 'config.unprotect'), 'pla config unprotect qa');
  examples(declareAction(tree.command('path').description('print the config file path'), 'config.path'), 'pla config path');
  return tree;
}
