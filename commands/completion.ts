/** `pla completion bash|zsh|fish`: prints a shell completion script. */
import { Argument } from '@commander-js/extra-typings';
import { SHELLS } from '../src/completion/shells.js';
import { runs } from '../src/cli/invocation.js';
import { examples } from './options.js';
import { tree } from './tree.js';

/** Declares `pla completion`; the scripts load only when it runs. */
export function createCompletionCommand() {
  const command = tree('completion')
    .description('print a shell completion script (commands, flags, environment names, choices, file paths)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS));
  examples(
    command,
    'pla completion bash > ~/.local/share/bash-completion/completions/pla',
    'pla completion zsh > "${fpath[1]}/_pla"',
    'pla completion fish > ~/.config/fish/completions/pla.fish',
  );
  return runs(command, async () => (await import('../src/cli/handlers/completion.js')).print);
}
