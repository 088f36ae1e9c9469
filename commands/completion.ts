/** `pla completion bash|zsh|fish`: prints a shell completion script. */
import { Argument, Command } from 'commander';
import { lazy } from '../src/cli/lazy-action.js';
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
  return command.action(lazy(() => import('../src/completion/scripts.js'), async (h, inv) => {
    process.stdout.write(h.completionScript(inv.args[0] as Parameters<typeof h.completionScript>[0]));
  }));
}
