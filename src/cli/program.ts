/**
 * The commander program: global options, the command trees, `help [command]`
 * (including `help exit-codes`), `openapi`. Building it imports only commander and
 * the plain-data contract table; every action loads its handler when it runs.
 */
import { CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { addGlobalOptions } from '../../commands/global-options.js';
import { addGroupExamples } from '../../commands/options.js';
import { registerCommands } from '../../commands/index.js';
import { EXIT_CODES, UsageError } from '../errors.js';
import type { IOStreams } from '../io/streams.js';
import { PlaProgram, type RunSurroundings, runs } from './invocation.js';

declare const __PLA_VERSION__: string;

/** commander's own stdout text (help, version) on a terminal, held until the parse ends to go through the pager. */
const heldOut = new WeakMap<IOStreams, string[]>();

function holdOut(io: IOStreams, text: string): void {
  if (!io.stdoutIsTTY) return void io.stdout.write(text);
  heldOut.set(io, [...(heldOut.get(io) ?? []), text]);
}

/**
 * Writes what commander printed on a terminal during the parse: through the pager
 * when it is longer than the terminal (`pla det --help`), else as it is.
 */
export async function releaseHeldOutput(io: IOStreams): Promise<void> {
  const text = (heldOut.get(io) ?? []).join('');
  heldOut.delete(io);
  if (!text) return;
  // The pager module (child_process) loads only for text that may need it: `--version` stays light.
  if (io.terminalRows === undefined || text.split('\n').length <= io.terminalRows) return void io.stdout.write(text);
  await (await import('../io/pager.js')).page(text, io);
}

/** Applies settings every command in the tree needs (trees are built apart and added). */
function configureTree(command: CommandUnknownOpts, io: IOStreams): void {
  command.exitOverride();
  // commander's own output (help, usage errors) goes through the run's streams too.
  command.configureOutput({
    writeOut: (text) => holdOut(io, text),
    writeErr: (text) => io.stderr.write(text),
    // One wording for suggestions: commander's "(Did you mean list?)" as pla's own "hint: did you mean list?".
    outputError: (text, write) => write(text.replace(/^\(Did you mean (.+)\?\)$/m, 'hint: did you mean $1?')),
    getOutHelpWidth: () => (io.stdoutIsTTY ? io.terminalColumns : undefined) ?? 80,
    getErrHelpWidth: () => (io.stderrIsTTY ? io.terminalColumns : undefined) ?? 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  // A command's help shows its own options and examples first; the ~30 global ones are a pointer away (as gh's "INHERITED FLAGS" are).
  if (command.parent) command.addHelpText('after', '\nGlobal options (-e, -o, --fields, -q, --verbose …): pla help options');
  for (const sub of command.commands) configureTree(sub, io);
}

/** Finds a command by its path of names or aliases (`determinations get`). */
function findCommand(root: CommandUnknownOpts, names: string[]): CommandUnknownOpts | undefined {
  let current: CommandUnknownOpts | undefined = root;
  for (const name of names) {
    current = current.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!current) return undefined;
  }
  return current;
}

/** `pla help options`: the options every command takes, as commander words them. */
function globalOptionsText(program: CommandUnknownOpts): string {
  const help = program.createHelp();
  const options = help.visibleOptions(program);
  const width = Math.max(...options.map((option) => help.optionTerm(option).length));
  const lines = options.map((option) => `  ${help.optionTerm(option).padEnd(width)}  ${help.optionDescription(option)}`);
  return `Global options: every command takes them, before or after its name.\n\n${lines.join('\n')}\n`;
}

function addHelpCommand(program: CommandUnknownOpts, io: IOStreams): void {
  program.helpCommand(false);
  program
    .command('help [command...]')
    .description('show help for a command, or a topic: options, environments, bulk-files, plans, exit-codes, local-server')
    .addHelpText('after', '\nExamples:\n  pla help determinations decommission\n  pla help exit-codes\n  pla help local-server')
    .action(async (names) => {
      const { page } = await import('../io/pager.js');
      const { HELP_TOPICS, topicList } = await import('./help-topics.js');
      const topic = names.length === 1 ? HELP_TOPICS[names[0] as string] : undefined;
      if (topic) return page(topic.text(), io);
      if (names.length === 1 && names[0] === 'options') return page(globalOptionsText(program), io);
      if (names.length === 0) return page(`${program.helpInformation()}\nTopics:\n${topicList()}\n`, io);
      const target = findCommand(program, names);
      if (!target)
        throw new UsageError(`unknown command or topic: ${names.join(' ')}`, {
          hint: `run \`pla --help\` for the commands; topics: ${Object.keys(HELP_TOPICS).join(', ')}`,
        });
      // Long help reads through the pager on a terminal.
      return page(target.helpInformation(), io);
    });
}

/**
 * The first word of the command line that is not a global option or its value:
 * the command tree to build. A wrong guess only means every tree gets built.
 */
function commandWord(program: CommandUnknownOpts, argv: readonly string[]): string | undefined {
  const takesValue = new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.short, o.long]));
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return argv[i + 1];
    if (arg === '--help' || arg === '-h') return undefined; // the program's own help, whatever follows
    if (!arg.startsWith('-')) return arg;
    if (takesValue.has(arg)) i++;
  }
  return undefined;
}

/**
 * Builds the program for a run with `io` in `surroundings` (environment variables,
 * Ctrl-C signal, folder); with `argv` (as `process.argv`), only the command tree
 * it names (start-up time).
 */
export function createProgram(io: IOStreams, argv?: readonly string[], surroundings: RunSurroundings = {}): CommandUnknownOpts {
  const program = addGlobalOptions(
    new PlaProgram(io, argv?.slice(2) ?? [], surroundings)
      .description('Administer the Portfolio and Lease Accounting service, or run it locally.')
      .version(__PLA_VERSION__, '-V, --version')
      .showSuggestionAfterError(),
  );
  program.addHelpText(
    'after',
    `
Examples:
  pla config set-url https://pla.example.com --env qa
  pla -e qa determinations list --size 20
  pla det decommission 7 8 9 --yes
  pla server start --port 4010

Exit codes: pla help exit-codes
Topics: pla help options | environments | bulk-files | plans | exit-codes | local-server`,
  );
  program.hook('preAction', () => {
    if (program.getOptionValueSource('apiKey') === 'cli') {
      io.stderr.write('warning: --api-key is visible in the process list; prefer `pla config set-key` or PLA_API_KEY\n');
    }
  });
  const word = argv ? commandWord(program, argv) : undefined;
  // `pla` and `pla --help` show only the trees' names: no need to declare their verbs.
  const topHelp = argv !== undefined && word === undefined && (argv.length === 2 || argv.includes('--help') || argv.includes('-h'));
  registerCommands(program, word, topHelp);
  runs(
    program
      .command('openapi')
      .description('print the OpenAPI 3.1 document derived from the contract')
      .addHelpText('after', '\nExample:\n  pla openapi > openapi.json'),
    async () => (await import('./handlers/openapi.js')).printOpenApi,
  );
  addHelpCommand(program, io);
  addGroupExamples(program);
  configureTree(program, io);
  return program;
}

/** Exit code for commander's own exits: help and version are success, the rest usage errors. */
export function commanderExitCode(error: CommanderError): number {
  return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? EXIT_CODES.ok : EXIT_CODES.usage;
}

export { CommanderError };
