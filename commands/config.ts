/** `pla config`: environments, base URLs, API keys, proxies and CA files (kept in conf, file mode 0600). */
import { Command } from 'commander';
import { lazy } from '../src/cli/lazy-action.js';
import { examples } from './options.js';

const load = () => import('../src/cli/handlers/config.js');

/** Declares the `pla config` tree; handlers load only when a verb runs. */
export function createConfigCommand(): Command {
  const tree = new Command('config').description('environments, base URLs, API keys, proxies and CA files');
  examples(
    tree.command('set-key').description('store the API key of an environment (-e/--env; from stdin when piped, else a hidden prompt)').action(lazy(load, (h, inv) => h.setKey(inv))),
    'pla config set-key --env qa            # prompts, nothing echoed',
    'pla config set-key --env qa < key.txt',
  );
  examples(
    tree.command('set-url <url>').description('set the base URL of an environment (-e/--env)').action(lazy(load, (h, inv) => h.setUrl(inv))),
    'pla config set-url https://pla-qa.example.com --env qa',
  );
  examples(
    tree
      .command('set-proxy [url]')
      .description('send an environment’s requests through a forward proxy (-e/--env); wins over HTTPS_PROXY/HTTP_PROXY, NO_PROXY still applies')
      .option('--unset', 'remove the environment’s proxy')
      .action(lazy(load, (h, inv) => h.setProxy(inv))),
    'pla config set-proxy http://proxy.corp.example:3128 --env qa',
    'pla config set-proxy http://ana:secret@proxy.corp.example:3128 --env qa   # password never shown',
    'pla config set-proxy --unset --env qa',
  );
  examples(
    tree
      .command('set-ca [file]')
      .description('trust the certificate authorities in a PEM file for an environment (-e/--env), besides the usual ones')
      .option('--unset', 'trust only the usual CAs again')
      .action(lazy(load, (h, inv) => h.setCa(inv))),
    'pla config set-ca ./corp-root.pem --env qa',
    'pla config set-ca --unset --env qa',
    'NODE_EXTRA_CA_CERTS=./corp-root.pem pla det list   # the same for one run, every environment',
  );
  examples(tree.command('use <env>').description('make an environment the current one').action(lazy(load, (h, inv) => h.use(inv))), 'pla config use qa');
  examples(
    tree.command('remove <env>').description('forget everything stored for an environment (key included)').action(lazy(load, (h, inv) => h.remove(inv))),
    'pla config remove staging',
  );
  examples(
    tree.command('rename <old> <new>').description('rename an environment, keeping its URL, key, proxy and CA file').action(lazy(load, (h, inv) => h.rename(inv))),
    'pla config rename qa qa-eu',
  );
  examples(
    tree
      .command('export')
      .description('print the stored environments as JSON; API keys are left out unless --with-keys')
      .option('--with-keys', 'include the API keys in plain text (asks first)')
      .option('-y, --yes', 'do not ask before including keys (needed when stdin is not a terminal)')
      .action(lazy(load, (h, inv) => h.exportConfig(inv))),
    'pla config export > pla-envs.json',
    'pla config export --with-keys --yes > pla-envs-with-keys.json',
  );
  examples(
    tree
      .command('import <file>')
      .description('merge environments from a `pla config export` file (- for stdin); fields in the file replace stored ones')
      .action(lazy(load, (h, inv) => h.importConfig(inv))),
    'pla config import pla-envs.json',
  );
  examples(tree.command('show').description('environments with base URLs, masked keys, proxies, CA files and where each comes from').action(lazy(load, (h, inv) => h.show(inv))), 'pla config show');
  examples(tree.command('path').description('print the config file path').action(lazy(load, (h, inv) => h.path(inv))), 'pla config path');
  return tree;
}
