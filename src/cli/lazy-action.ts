/**
 * Command files declare their commands cheaply and load the code that runs them
 * only when they run: `lazy(() => import('./handlers/x.js'), (h, inv) => h.run(inv))`.
 * esbuild turns each `import()` into its own chunk, so `pla --help` loads no handler.
 */
import type { Command } from 'commander';
import { interruptSignal } from './interrupt.js';

/** What a handler gets: the declared arguments, every option (globals included), the abort signal. */
export interface Invocation {
  /** Declared positional arguments, as commander processed them (variadic ones are arrays). */
  args: unknown[];
  /** The command's options merged with the global ones. */
  opts: Record<string, unknown>;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

/** Builds a commander action that imports its module first, then runs. */
export function lazy<M>(load: () => Promise<M>, run: (module: M, invocation: Invocation) => Promise<void>) {
  return async (...actionArgs: unknown[]): Promise<void> => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const invocation: Invocation = {
      args: command.processedArgs as unknown[],
      opts: command.optsWithGlobals(),
      signal: interruptSignal,
    };
    await run(await load(), invocation);
  };
}
