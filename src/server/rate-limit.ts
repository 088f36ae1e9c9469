/**
 * Per-key token buckets for `--rate-limit N`: each key may burst N requests (at
 * least one, so a rate below one a second still lets requests through) and regains N
 * tokens a second. An empty bucket answers 429 with `Retry-After`.
 *
 * On PostgreSQL the buckets are in the database (the store's `buckets`), so every
 * server sharing it applies one limit together: two servers with `--rate-limit 5`
 * let 5 requests a second through, not 10. On the JSON-file store one process owns
 * the data, and the buckets live in it.
 */
import type { RecordId } from '../contract/ids.js';
import type { SharedBuckets } from '../store/types.js';
import { HttpProblem } from './problem.js';

interface Bucket {
  tokens: number;
  at: number;
}

/** The token buckets, one per API key id: in the database when it is shared, else in this process. */
export class RateLimiter {
  private readonly buckets = new Map<RecordId, Bucket>();

  private readonly burst: number;

  constructor(
    private readonly perSecond: number,
    private readonly shared?: SharedBuckets,
  ) {
    this.burst = Math.max(1, perSecond);
  }

  /** Takes one token for `keyId`; throws (or rejects with) a 429 problem when there is none. */
  take(keyId: RecordId, now = Date.now()): void | Promise<void> {
    if (this.perSecond <= 0) return;
    if (this.shared) {
      return this.shared.take(`key:${keyId}`, this.burst, this.perSecond).then((wait) => {
        if (wait > 0) throw this.limited(wait);
      });
    }
    const bucket = this.buckets.get(keyId) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(keyId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    throw this.limited((1 - bucket.tokens) / this.perSecond);
  }

  /** The 429 for a bucket that has a token again in `waitSeconds`. */
  private limited(waitSeconds: number): HttpProblem {
    const retryAfter = Math.max(1, Math.ceil(waitSeconds));
    return new HttpProblem(429, `rate limit of ${this.perSecond} requests per second exceeded; retry after ${retryAfter} s`, {
      slug: 'rate-limited',
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}
