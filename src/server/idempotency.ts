/**
 * Replays of POSTs carrying an `Idempotency-Key`: the first request's reply is
 * kept in memory for a few minutes and a repeat (same key, same API key, same
 * method and path) gets the same reply without running again, so a client that
 * retries a POST never creates twice. A repeat that arrives while the first is
 * still running waits for it.
 */
import type { Reply } from './reply.js';

const TTL_MS = 5 * 60 * 1000;

interface Entry {
  reply: Promise<Reply>;
  expires: number;
}

export class IdempotencyCache {
  private readonly entries = new Map<string, Entry>();

  /** The reply for `key`: a replay when known, else `run()`'s (5xx replies are not kept). */
  async run(key: string, run: () => Promise<Reply>): Promise<{ reply: Reply; replayed: boolean }> {
    const now = Date.now();
    this.evict(now);
    const known = this.entries.get(key);
    if (known) return { reply: await known.reply, replayed: true };
    const reply = run();
    this.entries.set(key, { reply, expires: now + TTL_MS });
    const settled = await reply.catch((error: unknown) => {
      this.entries.delete(key);
      throw error;
    });
    if (settled.status >= 500) this.entries.delete(key);
    return { reply: settled, replayed: false };
  }

  clear(): void {
    this.entries.clear();
  }

  private evict(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expires > now) break;
      this.entries.delete(key);
    }
  }
}
