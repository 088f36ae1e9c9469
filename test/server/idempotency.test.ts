/**
 * The Idempotency-Key replay cache: repeats are answered from it, failures are not
 * kept, and what it keeps stays within its byte budget (oldest replies go first).
 */
import { describe, expect, it } from 'vitest';
import { IdempotencyCache } from '../../src/server/idempotency.js';
import type { Reply } from '../../src/server/reply.js';

function reply(status: number, body = ''): Reply {
  return { status, headers: {}, body };
}

/** Runs `key` through the cache with a handler that counts its runs. */
async function post(cache: IdempotencyCache, key: string, answer: Reply, runs: { count: number }) {
  return cache.run(key, () => {
    runs.count++;
    return Promise.resolve(answer);
  });
}

describe('idempotency cache', () => {
  it('replays a kept reply and does not keep a 5xx', async () => {
    const cache = new IdempotencyCache();
    const runs = { count: 0 };
    expect(await post(cache, 'a', reply(201, '{"id":1}'), runs)).toEqual({ reply: reply(201, '{"id":1}'), replayed: false });
    expect(await post(cache, 'a', reply(201, '{"id":2}'), runs)).toEqual({ reply: reply(201, '{"id":1}'), replayed: true });
    await post(cache, 'b', reply(500), runs);
    expect((await post(cache, 'b', reply(200), runs)).replayed).toBe(false);
    expect(runs.count).toBe(3);
  });

  it('a repeat that arrives while the first runs waits for it and runs nothing', async () => {
    const cache = new IdempotencyCache();
    let finish: (value: Reply) => void = () => {};
    const first = cache.run('k', () => new Promise<Reply>((resolve) => (finish = resolve)));
    const runs = { count: 0 };
    const second = post(cache, 'k', reply(200, 'other'), runs);
    finish(reply(201, 'first'));
    expect(await first).toEqual({ reply: reply(201, 'first'), replayed: false });
    expect(await second).toEqual({ reply: reply(201, 'first'), replayed: true });
    expect(runs.count).toBe(0);
  });

  it('keeps replies within its byte budget, dropping the oldest first', async () => {
    const cache = new IdempotencyCache(3 * (512 + 1 + 1000));
    const runs = { count: 0 };
    const body = 'x'.repeat(1000);
    for (const key of ['1', '2', '3', '4']) await post(cache, key, reply(200, body), runs);
    expect(runs.count).toBe(4);
    // '1' went to make room for '4'; the three newest are still replayed.
    for (const key of ['2', '3', '4']) expect((await post(cache, key, reply(200), runs)).replayed).toBe(true);
    expect((await post(cache, '1', reply(200), runs)).replayed).toBe(false);
    expect(runs.count).toBe(5);
  });
});
