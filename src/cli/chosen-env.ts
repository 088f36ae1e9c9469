/** The environment a command is run on, by name only: what `runs … last` and `server stop` select by. */
import type { CommandContext } from './context.js';

/** `-e`, else PLA_ENV, else the one `pla config use` made current: the rule every command that talks to the service follows. */
export async function chosenEnv(ctx: CommandContext): Promise<string> {
  return ctx.opts.env || ctx.env.PLA_ENV || (await ctx.config()).currentEnv();
}
