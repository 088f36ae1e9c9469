/**
 * The recent requests, for `/_admin/requests` and `pla server log`. Keys appear
 * only by name and masked tail; bodies are not kept. Entries are kept raw in a ring
 * and formatted only when someone reads the log, not on every request.
 */
import { maskFromLast4 } from '../contract/secrets.js';

/** Requests the log keeps; the oldest goes first. */
const CAPACITY = 500;

/** One request as `/_admin/requests` lists it. */
export interface LoggedRequest {
  at: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  /** `name (••••abcd)` of the key used, or what was presented, masked. */
  key?: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** What the pipeline records per request; `at` is ms since the epoch. */
export interface RequestLogEntry {
  at: number;
  method: string;
  path: string;
  status: number;
  ms: number;
  /** The key that was accepted, or the presented one already masked. */
  key: { name: string; last4: string } | string | undefined;
  idempotencyKey: string | undefined;
  replayed: boolean;
}

function formatted(entry: RequestLogEntry): LoggedRequest {
  const { key, idempotencyKey } = entry;
  return {
    at: new Date(entry.at).toISOString(),
    method: entry.method,
    path: entry.path,
    status: entry.status,
    ms: entry.ms,
    ...(key === undefined ? {} : { key: typeof key === 'string' ? key : `${key.name} (${maskFromLast4(key.last4)})` }),
    ...(idempotencyKey ? { idempotencyKey } : {}),
    ...(entry.replayed ? { replayed: true } : {}),
  };
}

/** The last requests the server answered, in a fixed-size ring. */
export class RequestLog {
  private readonly ring: RequestLogEntry[] = [];
  /** Where the next entry goes once the ring is full (= the oldest entry). */
  private next = 0;

  add(entry: RequestLogEntry): void {
    if (this.ring.length < CAPACITY) {
      this.ring.push(entry);
      return;
    }
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % CAPACITY;
  }

  /** The newest `limit` entries, oldest first. */
  recent(limit: number): LoggedRequest[] {
    const inOrder = this.ring.slice(this.next).concat(this.ring.slice(0, this.next));
    return inOrder.slice(-limit).map(formatted);
  }
}
