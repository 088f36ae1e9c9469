/**
 * `pla config detect` and `pla config set-wire`: an environment's wire profile
 * (src/contract/wire-profile.ts), found with read-only calls or set by hand. Every
 * command on the environment then reads answers by it.
 */
import { UsageError } from '../../errors.js';
import { parseWireSettings, type WireProfile, WireProfileError, wireSettingsOf, wireText } from '../../contract/wire-profile.js';
import { renderRows } from '../../io/output/index.js';
import { type CommandContext, withContext } from '../context.js';
import type { Invocation } from '../invocation.js';
import { targetEnv } from './config.js';

/** A profile as rows of setting and value (what `detect` and `set-wire` print). */
async function printProfile(ctx: CommandContext, profile: WireProfile): Promise<void> {
  await renderRows(
    wireSettingsOf(profile).map(([setting, value]) => ({ setting, value: String(value) })),
    ctx.output,
  );
}

/** `config detect [--dry-run]`: probes the environment's service and stores the profile it found. */
export function detect(invocation: Invocation<[], { dryRun?: boolean }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = (await ctx.connection()).env;
    const { detectWire } = await import('../../client/detect-wire.js');
    const { profile, unknown } = await detectWire(await ctx.client(), ctx.signal);
    await printProfile(ctx, profile);
    for (const line of unknown) ctx.note(`not found out: ${line}`);
    if (ctx.opts.dryRun) {
      ctx.note(`not saved (--dry-run); without it: pla config detect --env ${env}`);
      return;
    }
    await (await ctx.config('write')).setWire(env, profile);
    ctx.note(`saved the wire profile of ${env}; commands on ${env} read answers by it (pla config show, pla doctor compares)`);
  });
}

/** `config set-wire <name=value…> | --unset`: sets settings of the environment's profile by hand (merged into the stored one unless --replace). */
export function setWire(invocation: Invocation<[settings: string[]], { replace?: boolean; unset?: boolean }>): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const env = await targetEnv(ctx);
    const [settings] = ctx.args;
    const config = await ctx.config('write');
    if (ctx.opts.unset) {
      if (settings.length > 0) throw new UsageError('give either settings or --unset, not both');
      await config.setWire(env, undefined);
      ctx.note(`${env} has no wire profile now: answers are read by pla's rules (pla config detect finds one)`);
      return;
    }
    let profile: WireProfile;
    try {
      profile = parseWireSettings(settings, ctx.opts.replace ? {} : (config.get(env).wire ?? {}));
    } catch (error) {
      if (!(error instanceof WireProfileError)) throw error;
      throw new UsageError(error.message, { hint: 'e.g. pla config set-wire page.base=1 page.maxSize=100 --env qa' });
    }
    await config.setWire(env, profile);
    ctx.note(`${env}: ${wireText(profile)}`);
  });
}
