/** Waiting for a condition instead of sleeping: tests on a shared machine never depend on timing luck. */

/** Polls `check` every `everyMs` until it returns true (a throw counts as false), failing after `ms`. */
export async function eventually(check: () => Promise<boolean>, ms = 60_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((done) => setTimeout(done, everyMs));
  }
}
