import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchTasks } from '../../src/bulk/watch.js';
import { InterruptedError, NotFoundError } from '../../src/errors.js';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import { client } from './helpers.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());

/** Answers tasks.get with each task's next status in turn (the last one repeats). */
function statuses(byId: Record<number, string[]>): void {
  const served: Record<number, number> = {};
  server.setRoutes([
    {
      method: 'GET',
      path: /^\/api\/v1\/batch\/mass-inter-company-transfer\/tasks\/\d+$/,
      reply: (request) => {
        const id = Number(request.path.split('/').pop());
        const list = byId[id];
        if (!list) return { status: 404, body: { title: 'Not Found', status: 404, detail: `no task ${id}` } };
        const n = served[id] ?? 0;
        served[id] = n + 1;
        return { body: { success: true, message: 'ok', data: { id, status: list[Math.min(n, list.length - 1)] } } };
      },
    },
  ]);
}

describe('watchTasks', () => {
  it('polls until every task is COMPLETED, FAILED or CANCELLED; unknown statuses are not done', async () => {
    statuses({ 1: ['PENDING', 'RUNNING', 'COMPLETED'], 2: ['CANCELLED'], 3: ['RUNNING', 'PAUSED_BY_OPS', 'FAILED'] });
    const result = await watchTasks(client(server.url), [1, 2, 3], { intervalMs: 1 });
    expect(result).toEqual([
      { id: 1, status: 'COMPLETED', done: true, ok: true },
      { id: 2, status: 'CANCELLED', done: true, ok: false },
      { id: 3, status: 'FAILED', done: true, ok: false },
    ]);
    // Task 2 was done at the first poll and not asked again.
    expect(server.requests.filter((r) => r.path.endsWith('/2'))).toHaveLength(1);
  });

  it('stops with InterruptedError when aborted', async () => {
    statuses({ 5: ['RUNNING'] });
    const controller = new AbortController();
    const watching = watchTasks(client(server.url), [5], { intervalMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(watching).rejects.toBeInstanceOf(InterruptedError);
  });

  it('throws what the service says about an unknown task', async () => {
    statuses({});
    await expect(watchTasks(client(server.url), [404], { intervalMs: 1 })).rejects.toBeInstanceOf(NotFoundError);
  });
});
