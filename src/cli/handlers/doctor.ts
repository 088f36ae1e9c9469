/**
 * `pla doctor`: checks each step between this machine and the service
 * (src/cli/doctor/checks.ts) and prints ✓/✗ with a hint per line, or `-o json`.
 * Exits 0 when every check passes, else with the code of the first failure.
 */
import { PlaError } from '../../errors.js';
import { type Check, runChecks } from '../doctor/checks.js';
import { withContext } from '../context.js';
import { writeOut } from '../../io/output/write-out.js';
import type { Invocation } from '../invocation.js';
import { terminalSafe } from '../../contract/terminal-text.js';

const MARKS = { ok: '✓', fail: '✗', skip: '–' } as const;

/** Thrown after the report when a check failed; its code is that check's. */
class DoctorFailure extends PlaError {
  constructor(
    message: string,
    override readonly exitCode: number,
  ) {
    super(message, { hint: 'fix the ✗ lines above, first one first' });
  }
}

function lines(checks: readonly Check[]): string {
  const width = Math.max(...checks.map((c) => c.check.length));
  return checks.map((c) => `${MARKS[c.status]} ${c.check.padEnd(width)}  ${c.detail}${c.hint ? `\n  ${' '.repeat(width)}  hint: ${c.hint}` : ''}`).join('\n');
}

export function doctor(invocation: Invocation): Promise<void> {
  return withContext(invocation, async (ctx) => {
    const { createClient } = await import('../../client/index.js');
    const timeoutMs = (ctx.opts.timeout ?? 10) * 1000;
    const checks = await runChecks({
      flags: { env: ctx.opts.env, baseUrl: ctx.opts.baseUrl, apiKey: ctx.opts.apiKey },
      env: ctx.env,
      config: await ctx.config(),
      timeoutMs,
      client: (conn, ca) =>
        createClient({
          baseUrl: conn.baseUrl,
          apiKey: conn.apiKey,
          env: conn.env,
          retries: 0,
          timeoutMs,
          ...(conn.proxy ? { proxy: conn.proxy } : {}),
          variables: ctx.env,
          ...(ca !== undefined && conn.caFile ? { ca, caFile: conn.caFile } : {}),
          signal: ctx.signal,
        }),
    });
    const json = ctx.output.format === 'json' || ctx.output.format === 'ndjson';
    // The details quote the service and its certificates: the text form is for a person's terminal.
    await writeOut(ctx.io.stdout, json ? `${JSON.stringify(checks, null, 2)}\n` : `${terminalSafe(lines(checks))}\n`);
    const failed = checks.filter((c) => c.status === 'fail');
    const first = failed[0];
    if (first) throw new DoctorFailure(`${failed.length} of ${checks.length} checks failed (first: ${first.check})`, first.exitCode ?? 1);
  });
}
