/**
 * Installs the actions `commands/` declares (commands/actions.ts): each runs its
 * handler from the registry, which imports the handler's module only then.
 * esbuild turns each `import()` into its own chunk, so `pla --help` loads no handler.
 */
import type { Command } from 'commander';
import { declaredAction } from '../../commands/actions.js';
import type { IOStreams } from '../io/streams.js';
import { HANDLERS } from './handlers/registry.js';
import { interruptSignal } from './interrupt.js';
import type { Handler } from './invocation.js';

/** Gives every command of `root`'s tree that declares an action its handler, run with `io`. */
export function installActions(root: Command, io: IOStreams): void {
  const declared = declaredAction(root);
  if (declared) {
    const run = HANDLERS[declared.key] as Handler<typeof declared.spec>;
    root.action(async (...actionArgs: unknown[]) => {
      const command = actionArgs[actionArgs.length - 1] as Command;
      await run({ args: command.processedArgs as unknown[], opts: command.optsWithGlobals(), signal: interruptSignal, io }, declared.spec);
    });
  }
  for (const sub of root.commands) installActions(sub, io);
}
