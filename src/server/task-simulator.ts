/**
 * `--simulate-tasks N`: every N seconds each PENDING task starts (RUNNING) and each
 * RUNNING task that has run for at least N seconds ends — COMPLETED, or FAILED for
 * one in five — so operators can rehearse watching and cancelling tasks.
 */
import type { Store, StoredRecord } from '../store/types.js';
import { moveTask } from './handlers/tasks.js';

/** Starts stepping tasks every `stepSeconds`; `stop()` resolves once a step under way has committed. */
export function startTaskSimulator(store: Store, stepSeconds: number, warn: (message: string) => void): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const step = async () => {
    const now = new Date().toISOString();
    const due = Date.now() - stepSeconds * 1000;
    const next: StoredRecord[] = [];
    for (const task of store.all('tasks')) {
      if (task.status === 'PENDING') next.push(moveTask(task, 'RUNNING', now));
      else if (task.status === 'RUNNING' && Date.parse(String(task.startedAt ?? task.updatedAt)) <= due) {
        next.push(moveTask(task, task.id % 5 === 0 ? 'FAILED' : 'COMPLETED', now));
      }
    }
    if (next.length) await store.commit(next.map((record) => ({ op: 'put' as const, collection: 'tasks' as const, record })));
  };
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
