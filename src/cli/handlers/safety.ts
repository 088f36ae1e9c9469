/**
 * Confirmation before destructive calls: a prompt on a terminal (typing the
 * environment's name on production), `--yes` in scripts, refusal otherwise.
 */
import { expandPath, operation, type OperationId } from '../../contract/operations.js';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../context.js';

/** `-y/--yes`, `--dry-run` (commands/options.ts). */
export interface SafetyOptions {
  yes?: boolean;
  dryRun?: boolean;
}

/**
 * Asks "<question> on <env>?", below `preview` (what would change) when given;
 * throws when refused or when no terminal can answer.
 */
export async function confirmDestructive(
  ctx: CommandContext<Pick<SafetyOptions, 'yes'>>,
  question: string,
  { dryRun = true, preview }: { dryRun?: boolean; preview?: string } = {},
): Promise<void> {
  if (ctx.opts.yes) return;
  if (!ctx.io.canPrompt()) {
    // Only the first letter drops its capital: the rest names users and dates as given.
    const what = question.charAt(0).toLowerCase() + question.slice(1);
    throw new UsageError(`refusing to go ahead without confirmation (${what}): stdin is not a terminal`, {
      // Only the commands that take --dry-run are told about it (apply and server reset do not).
      hint: dryRun ? 'pass --yes to confirm, or --dry-run to see what would change' : 'pass --yes to confirm',
    });
  }
  const { env } = await ctx.connection();
  const prompt = await import('../../io/prompt.js');
  const streams = { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal };
  if (preview !== undefined) ctx.io.stderr.write(preview);
  const confirmed =
    env === 'production' ? await prompt.confirmByTyping(`${question} on ${env}?`, env, streams) : await prompt.confirm(`${question} on ${env}?`, streams);
  if (!confirmed) throw new UsageError('not confirmed; nothing was changed');
}

/** `PUT /api/v1/…/remove/7`: the call a dry run says it would make. */
export function requestLine(operationId: OperationId, params?: Record<string, string | number | bigint>): string {
  const op = operation(operationId);
  return `${op.method} ${expandPath(op, params)}`;
}
