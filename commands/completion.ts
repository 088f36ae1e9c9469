/** `pla completion bash|zsh|fish`: prints a shell completion script. */
import { Argument, Command } from 'commander';
import { declareAction } from './actions.js';
import { examples } from './options.js';

/** Declares `pla completion`; the scripts load only when it runs. */
export function createCompletionCommand(): Command {
  const command = new Command('completion')
    .description('print a shell completion script (commands, flags, environment names, choices, file paths)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']));
  examples(
    command,
    'pla completion bash > ~/.local/share/bash-completion/completions/pla',
    'pla completion zsh > "${fpath[1]}/_pla"',
    'pla completion fish > ~/.config/fish/completions/pla.fish',
  );
  return declareAction(command, 'completion.print');
}
