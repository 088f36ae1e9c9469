/** The per-key token bucket of `--rate-limit`, driven with explicit times. */
import { describe, expect, it } from 'vitest';
import { HttpProblem } from '../../src/server/problem.js';
import { RateLimiter } from '../../src/server/rate-limit.js';

/** The 429 `take` throws, or undefined when it let the request through. */
function refusal(limiter: RateLimiter, key: number, now: number): HttpProblem | undefined {
  try {
    limiter.take(key, now);
    return undefined;
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
}

describe('rate limit', () => {
  it('lets a key burst N requests, then answers 429 with Retry-After, per key', () => {
    const limiter = new RateLimiter(3);
    for (let i = 0; i < 3; i++) expect(refusal(limiter, 1, 1000)).toBeUndefined();
    const refused = refusal(limiter, 1, 1000);
    expect(refused?.status).toBe(429);
    expect(refused?.options.headers?.['retry-after']).toBe('1');
    expect(refusal(limiter, 2, 1000)).toBeUndefined();
    expect(refusal(limiter, 1, 1400)).toBeUndefined(); // 0.4 s regained 1.2 tokens
  });

  it('a rate below one a second still lets requests through, one per 1/N seconds', () => {
    const limiter = new RateLimiter(0.5);
    expect(refusal(limiter, 1, 0)).toBeUndefined();
    const refused = refusal(limiter, 1, 500);
    expect(refused?.status).toBe(429);
    expect(refused?.options.headers?.['retry-after']).toBe('2');
    expect(refusal(limiter, 1, 2000)).toBeUndefined();
  });

  it('is off at 0', () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 100; i++) expect(refusal(limiter, 1, 0)).toBeUndefined();
  });
});
