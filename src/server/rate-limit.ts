/**
 * Per-key token buckets for `--rate-limit N`: each key may burst N requests (at
 * least one, so a rate below one a second still lets requests through) and regains N
 * tokens a second. An empty bucket answers 429 with `Retry-After`.
 */
import type { RecordId } from '../contract/ids.js';
import { HttpProblem } from './problem.js';

interface Bucket {
  tokens: number;
  at: number;
}

/** The token buckets of one server, one per API key id. */
export class RateLimiter {
  private readonly buckets = new Map<RecordId, Bucket>();

  private readonly burst: number;

  constructor(private readonly perSecond: number) {
    this.burst = Math.max(1, perSecond);
  }

  /** Takes one token for `keyId`; throws a 429 problem when there is none. */
  take(keyId: RecordId, now = Date.now()): void {
    if (this.perSecond <= 0) return;
    const bucket = this.buckets.get(keyId) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(keyId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
    throw new HttpProblem(429, `rate limit of ${this.perSecond} requests per second exceeded; retry after ${retryAfter} s`, {
      slug: 'rate-limited',
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}
