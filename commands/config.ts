/** `pla config`: environments, base URLs and API keys (kept in conf, file mode 0600). */
import { Command } from 'commander';
import { declareAction } from './actions.js';
import { examples } from './options.js';

/** Declares the `pla config` tree; handlers load only when a verb runs. */
export function createConfigCommand(): Command {
  const tree = new Command('config').description('environments, base URLs and API keys');
  examples(
    declareAction(tree.command('set-key').description('store the API key of an environment (-e/--env; from stdin when piped, else a hidden prompt)'), 'config.setKey'),
    'pla config set-key --env qa            # prompts, nothing echoed',
    'pla config set-key --env qa < key.txt',
  );
  examples(
    declareAction(tree.command('set-url <url>').description('set the base URL of an environment (-e/--env)'), 'config.setUrl'),
    'pla config set-url https://pla-qa.example.com --env qa',
  );
  examples(declareAction(tree.command('use <env>').description('make an environment the current one'), 'config.use'), 'pla config use qa');
  examples(declareAction(tree.command('show').description('environments with base URLs, masked keys and where each comes from'), 'config.show'), 'pla config show');
  examples(
    declareAction(tree.command('protect <env>').description('runs on this environment always record the records before they change (production is protected by default)'), 'config.protect'),
    'pla config protect qa',
  );
  examples(declareAction(tree.command('unprotect <env>').description('stop protecting an environment'), 'config.unprotect'), 'pla config unprotect qa');
  examples(declareAction(tree.command('path').description('print the config file path'), 'config.path'), 'pla config path');
  return tree;
}
