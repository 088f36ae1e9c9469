/**
 * The command tree as plain data for shell completion, taken from the commander
 * program at build time (scripts/build.mjs writes it to dist/completion-tree.json),
 * so completing never builds the program: `pla __complete` only reads this file.
 */
import type { Argument, CommandUnknownOpts, Option } from '@commander-js/extra-typings';

/** What the value of an option, or a positional argument, is completed with: `run` = the ids of the receipts kept. */
export type ValueKind = 'env' | 'file' | 'run' | 'choices' | 'other';

export interface CompletionOption {
  /** `-e`, `--env`. */
  flags: string[];
  /** Absent for a flag that takes no value. */
  value?: ValueKind;
  choices?: string[];
}

export interface CompletionNode {
  /** The name, then the aliases. */
  names: string[];
  options: CompletionOption[];
  commands: CompletionNode[];
  /** What each positional argument is completed with; the last repeats when variadic. */
  args: CompletionArg[];
}

export interface CompletionArg {
  value: ValueKind;
  choices?: string[];
}

/** Placeholders that name a path: `--file <path>`, `--rejects <file>`, `--data <dir>`. */
const PATH_PLACEHOLDER = /<(file|path|dir)>|\[(file|path|dir)\]/;

function optionEntry(option: Option): CompletionOption {
  const flags = [option.short, option.long].filter((f): f is string => Boolean(f));
  if (!option.required && !option.optional) return { flags };
  if (option.long === '--env') return { flags, value: 'env' };
  if (option.argChoices) return { flags, value: 'choices', choices: [...option.argChoices] };
  return { flags, value: PATH_PLACEHOLDER.test(option.flags) ? 'file' : 'other' };
}

function argEntry(arg: Argument): CompletionArg {
  if (arg.argChoices) return { value: 'choices', choices: [...arg.argChoices] };
  const name = arg.name();
  if (name === 'env' || name === 'old') return { value: 'env' };
  if (name === 'run') return { value: 'run' };
  // A plan saved with --plan-out is a file (`pla apply <plan>`).
  return { value: name === 'file' || name === 'plan' ? 'file' : 'other' };
}

/** The completion data of `command` and everything under it. */
export function completionTree(command: CommandUnknownOpts): CompletionNode {
  return {
    names: [command.name(), ...command.aliases()],
    options: command.options.filter((o) => !o.hidden).map(optionEntry),
    commands: command.commands.map(completionTree),
    args: command.registeredArguments.map(argEntry),
  };
}
