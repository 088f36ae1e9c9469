/**
 * At most `limit` tasks at once: `start` waits for a free slot, `drain` for all.
 * Tasks must not reject (the bulk runner records failures itself), so one task's
 * failure never leaves the others unawaited.
 */
export class TaskPool {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly limit: number) {}

  /** Resolves once fewer than `limit` tasks are running. */
  async whenFree(): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
  }

  /** Starts a task; call after `whenFree`. */
  start(task: () => Promise<void>): void {
    const running: Promise<void> = task().finally(() => this.running.delete(running));
    this.running.add(running);
  }

  /** Resolves once `ready()` holds, or nothing is left running that could make it hold. */
  async until(ready: () => boolean): Promise<void> {
    while (!ready() && this.running.size > 0) await Promise.race(this.running);
  }

  /** Resolves once every started task has settled. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.race(this.running);
  }
}
