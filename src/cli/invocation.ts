/**
 * How a declared command reaches its handler. A verb is declared once in
 * `commands/` and names its handler there with `runs(command, load)`; the
 * handler's module is imported only when the verb runs (esbuild makes each
 * `import()` its own chunk, so `pla --help` loads no handler). The handler
 * states the arguments and options it reads (`Invocation<Args, Opts>`), and
 * the compiler checks the declaration supplies them with those types.
 */
import { Command, type CommandUnknownOpts, type OptionValues } from '@commander-js/extra-typings';
import type { GlobalOptions } from '../../commands/global-options.js';
import type { IOStreams } from '../io/streams.js';

/** The environment variables a run sees (the process's, read once at the edge: src/cli/main.ts). */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * What a run is given besides its streams and command line. The process's are
 * read once at the edge (src/cli/main.ts); a test running `pla` in-process gives
 * its own, so no run sees another's.
 */
export interface RunSurroundings {
  /** Environment variables (default none). */
  readonly env?: Environment;
  /** Aborted on Ctrl-C (default never). */
  readonly signal?: AbortSignal;
  /** The folder files the run writes without being told where land in (default `.`, the process's working folder). */
  readonly cwd?: string;
}

/** What a handler gets when its command runs. */
export interface Invocation<Args extends readonly unknown[] = readonly unknown[], Opts extends object = {}> {
  /** Declared positional arguments, as commander processed them (variadic ones are arrays). */
  readonly args: Args;
  /** The command's options merged with the global ones. */
  readonly opts: Readonly<Opts & GlobalOptions>;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
  /** The streams and terminal facts of this run. */
  readonly io: IOStreams;
  /** The run's environment variables. */
  readonly env: Environment;
  /** The folder files the run writes without being told where land in (`.` for the process). */
  readonly cwd: string;
  /** The command line after `pla`, as typed (for receipts and plans; mask keys before showing it). */
  readonly argv: readonly string[];
}

/** A handler: runs one command. */
export type Handler<Args extends readonly unknown[] = readonly unknown[], Opts extends object = {}> = (invocation: Invocation<Args, Opts>) => Promise<void>;

/** The root command of one run: it carries the run's IO, surroundings and command line, which every action hands its handler. */
export class PlaProgram extends Command {
  readonly env: Environment;
  readonly signal: AbortSignal;
  readonly cwd: string;

  constructor(
    readonly io: IOStreams,
    readonly argv: readonly string[],
    surroundings: RunSurroundings,
  ) {
    super('pla');
    this.env = surroundings.env ?? {};
    this.signal = surroundings.signal ?? new AbortController().signal;
    this.cwd = surroundings.cwd ?? '.';
  }
}

function programOf(command: CommandUnknownOpts): PlaProgram {
  let root = command;
  while (root.parent) root = root.parent;
  if (!(root instanceof PlaProgram)) throw new Error(`${command.name()} is not part of a pla program`);
  return root;
}

/**
 * Makes `command` run the handler `load` gives (called only when the command
 * runs). `load`'s handler must accept the command's arguments and options.
 */
export function runs<Args extends unknown[], Opts extends OptionValues, Globals extends GlobalOptions>(
  command: Command<Args, Opts, Globals>,
  load: () => Promise<Handler<NoInfer<Args>, NoInfer<Opts>>>,
): Command<Args, Opts, Globals> {
  return command.action(async () => {
    const handler = await load();
    // extra-typings types optsWithGlobals() as Resolve<Opts & Globals>, a display form of the same type.
    const { io, env, argv, signal, cwd } = programOf(command);
    await handler({ args: command.processedArgs, opts: command.optsWithGlobals() as Opts & Globals, signal, io, env, cwd, argv });
  });
}
