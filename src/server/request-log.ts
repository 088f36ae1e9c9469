/**
 * The recent requests, for `/_admin/requests` and `pla server log`. Keys appear
 * only by name and masked tail; bodies are not kept.
 */

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

export class RequestLog {
  private readonly entries: LoggedRequest[] = [];

  constructor(private readonly capacity = 500) {}

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
  }

  /** The newest `limit` entries, oldest first. */
  recent(limit: number): LoggedRequest[] {
    return this.entries.slice(-limit);
  }
}
