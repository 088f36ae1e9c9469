/**
 * `--simulate-tasks N`: every N seconds each PENDING task starts (RUNNING) and each
 * RUNNING task that has run for at least N seconds ends — COMPLETED, or FAILED for
 * one in five — so operators can rehearse watching and cancelling tasks.
 */
import type { Store } from '../store/types.js';
import { moveTask } from './handlers/tasks.js';

/** The lock a step holds: with several server processes on one database, one of them steps at a time. */
const SIMULATOR_LOCK = 'pla:task-simulator';

/** Starts stepping tasks every `stepSeconds`; `stop()` resolves once a step under way has committed. */
export function startTaskSimulator(store: Store, stepSeconds: number, warn: (message: string) => void): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const step = () =>
    store.transaction(async (tx) => {
      // Another process is stepping the same tasks right now: its step covers this one.
      if (!(await tx.tryLock(SIMULATOR_LOCK))) return;
      const now = new Date().toISOString();
      const due = Date.now() - stepSeconds * 1000;
      for (const task of await tx.find('tasks', { where: [{ field: 'status', anyOf: ['PENDING', 'RUNNING'] }] })) {
        if (task.status === 'PENDING') tx.put('tasks', moveTask(task, 'RUNNING', now));
        else if (Date.parse(String(task.startedAt ?? task.updatedAt)) <= due) {
          tx.put('tasks', moveTask(task, BigInt(task.id) % 5n === 0n ? 'FAILED' : 'COMPLETED', now));
        }
      }
    });
  const timer = setInterval(() => {
    running = running.then(step).catch((error: unknown) => warn(`task simulation: ${String(error)}`));
  }, stepSeconds * 1000);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
