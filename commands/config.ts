/** `pla config`: environments, base URLs and API keys (kept in conf, file mode 0600). */
import { Command } from 'commander';
import { lazy } from '../src/cli/lazy-action.js';
import { examples } from './options.js';

const load = () => import('../src/cli/handlers/config.js');

/** Declares the `pla config` tree; handlers load only when a verb runs. */
export function createConfigCommand(): Command {
  const tree = new Command('config').description('environments, base URLs and API keys');
  examples(
    tree.command('set-key').description('store the API key of an environment (-e/--env; from stdin when piped, else a hidden prompt)').action(lazy(load, (h, inv) => h.setKey(inv))),
    'pla config set-key --env qa            # prompts, nothing echoed',
    'pla config set-key --env qa < key.txt',
  );
  examples(
    tree.command('set-url <url>').description('set the base URL of an environment (-e/--env)').action(lazy(load, (h, inv) => h.setUrl(inv))),
    'pla config set-url https://pla-qa.example.com --env qa',
  );
  examples(tree.command('use <env>').description('make an environment the current one').action(lazy(load, (h, inv) => h.use(inv))), 'pla config use qa');
  examples(tree.command('show').description('environments with base URLs, masked keys and where each comes from').action(lazy(load, (h, inv) => h.show(inv))), 'pla config show');
  examples(
    tree.command('protect <env>').description('runs on this environment always record the records before they change (production is protected by default)').action(lazy(load, (h, inv) => h.protect(inv, true))),
    'pla config protect qa',
  );
  examples(tree.command('unprotect <env>').description('stop protecting an environment').action(lazy(load, (h, inv) => h.protect(inv, false))), 'pla config unprotect qa');
  examples(tree.command('path').description('print the config file path').action(lazy(load, (h, inv) => h.path(inv))), 'pla config path');
  return tree;
}
