import { setTimeout as sleep } from 'node:timers/promises';
import type { PlaClient } from '../client/types.js';
import { InterruptedError } from '../errors.js';
import type { RecordId } from '../io/input/typed-ids.js';
import { startSpinner } from '../io/output/spinner.js';
import { WATCH_DEFAULTS } from './defaults.js';
import { TaskPool } from './pool.js';

/** Where a watched task ended up (or stands, if the watch was cut short). */
export interface WatchedTask {
  id: RecordId;
  status: string;
  /** COMPLETED, FAILED or CANCELLED; any other status (even an unknown one) is not done. */
  done: boolean;
  /** Done and COMPLETED. */
  ok: boolean;
}

export interface WatchOptions {
  /** Pause between polls of a task (default `WATCH_DEFAULTS.intervalSeconds`). */
  intervalMs?: number;
  /** Stops the watch (Ctrl-C): throws `InterruptedError`. */
  signal?: AbortSignal;
  /** A spinner is drawn on `stream` only when `isTTY`. */
  progress?: { stream: NodeJS.WritableStream; isTTY: boolean };
}

const FINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

function statusOf(data: unknown): string {
  const status = typeof data === 'object' && data !== null ? (data as { status?: unknown }).status : undefined;
  return typeof status === 'string' ? status : 'UNKNOWN';
}

/**
 * Polls `tasks.get` for each id until every task is COMPLETED, FAILED or
 * CANCELLED, and returns where each ended, in the order given. Errors from the
 * service (an unknown id, auth, network after retries) are thrown.
 */
export async function watchTasks(client: PlaClient, ids: readonly RecordId[], options: WatchOptions = {}): Promise<WatchedTask[]> {
  const tasks = new Map<RecordId, WatchedTask>(ids.map((id) => [id, { id, status: 'UNKNOWN', done: false, ok: false }]));
  const spinner = options.progress ? await startSpinner('watching tasks', options.progress.isTTY, options.progress.stream) : undefined;
  const interrupted = () => new InterruptedError(`stopped watching; ${[...tasks.values()].filter((t) => !t.done).length} tasks not finished yet`);
  try {
    for (;;) {
      const pending = [...tasks.values()].filter((task) => !task.done);
      const pool = new TaskPool(WATCH_DEFAULTS.pollsAtOnce);
      let failure: { error: unknown } | undefined;
      for (const task of pending) {
        await pool.whenFree();
        pool.start(async () => {
          try {
            const { data } = await client.call('tasks.get', { params: { id: task.id } });
            task.status = statusOf(data);
            task.done = FINAL.has(task.status.toUpperCase());
            task.ok = task.status.toUpperCase() === 'COMPLETED';
          } catch (error) {
            failure ??= { error };
          }
        });
      }
      await pool.drain();
      if (failure) throw failure.error;
      const left = [...tasks.values()].filter((task) => !task.done);
      spinner?.update(`${ids.length - left.length}/${ids.length} tasks finished${left[0] ? ` — ${left[0].id}: ${left[0].status}` : ''}`);
      if (left.length === 0) break;
      if (options.signal?.aborted) throw interrupted();
      try {
        await sleep(options.intervalMs ?? WATCH_DEFAULTS.intervalSeconds * 1000, undefined, options.signal ? { signal: options.signal } : {});
      } catch {
        throw interrupted();
      }
    }
    spinner?.succeed(`${ids.length} tasks finished`);
  } catch (error) {
    spinner?.fail();
    throw error;
  }
  return ids.map((id) => tasks.get(id) as WatchedTask);
}
