/**
 * Replays of POSTs carrying an `Idempotency-Key`: the first request's reply is
 * kept in memory for a few minutes and a repeat (same key, same API key, same
 * method and path) gets the same reply without running again, so a client that
 * retries a POST never creates twice. A repeat that arrives while the first is
 * still running waits for it.
 *
 * The kept replies are bounded in size as well as in time: pla's own client sends a
 * fresh key with every POST, so a long bulk import would otherwise hold five minutes
 * of its replies. Past the budget the oldest replies go first; retries come within
 * seconds, long before that.
 */
import type { Reply } from './reply.js';

const TTL_MS = 5 * 60 * 1000;

/** Reply bytes kept at most, by default. */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** What an entry costs beyond its body (key, headers, bookkeeping), so empty replies count too. */
const ENTRY_OVERHEAD_BYTES = 512;

interface Entry {
  reply: Promise<Reply>;
  expires: number;
  /** Counted once the reply is known; 0 while it runs. */
  bytes: number;
}

function costOf(key: string, reply: Reply): number {
  return ENTRY_OVERHEAD_BYTES + key.length + (reply.body?.length ?? 0);
}

/** The kept replies of one server, by API key, method, path and `Idempotency-Key`. */
export class IdempotencyCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_BYTES) {}

  /** The reply for `key`: a replay when known, else `run()`'s (5xx replies are not kept). */
  async run(key: string, run: () => Promise<Reply>): Promise<{ reply: Reply; replayed: boolean }> {
    const now = Date.now();
    this.evict(now);
    const known = this.entries.get(key);
    if (known) return { reply: await known.reply, replayed: true };
    const reply = run();
    const entry: Entry = { reply, expires: now + TTL_MS, bytes: 0 };
    this.entries.set(key, entry);
    const settled = await reply.catch((error: unknown) => {
      this.forget(key, entry);
      throw error;
    });
    if (settled.status >= 500) this.forget(key, entry);
    else if (this.entries.get(key) === entry) this.keep(entry, costOf(key, settled));
    return { reply: settled, replayed: false };
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private keep(entry: Entry, bytes: number): void {
    entry.bytes = bytes;
    this.bytes += bytes;
    // Oldest first (Maps keep insertion order); replies still running cost nothing yet and stay.
    for (const [key, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      if (old.bytes > 0) this.forget(key, old);
    }
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  private evict(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expires > now) break;
      this.forget(key, entry);
    }
  }
}
