/**
 * The recent requests, for `/_admin/requests` and `pla server log`, and the one
 * line per request the server's console shows. Keys appear only by name and masked
 * tail; a JSON request body is kept up to `LOGGED_BODY_BYTES`, secrets masked when
 * it is read. Entries are kept raw in a ring and formatted only when someone reads
 * the log, not on every request.
 */
import type { IncomingMessage } from 'node:http';
import { maskFromLast4, maskSecretsInText } from '../contract/secrets.js';
import { REQUEST_LOG_LIMITS, type ServerOptions } from './options.js';

/** Bytes of a request body the log keeps: enough to recognise a record, never a whole bulk file. */
export const LOGGED_BODY_BYTES = 2048;

/** The start of a request body (a copy, so the whole body is not held) and its full size. */
interface KeptBody {
  head: Buffer;
  bytes: number;
}

/** Bodies read for requests still being answered; dropped with the request. */
const keptBodies = new WeakMap<IncomingMessage, KeptBody>();

/** Keeps the start of `raw`, the body of `req`, for the request log. */
export function keepBody(req: IncomingMessage, raw: Buffer): void {
  keptBodies.set(req, { head: Buffer.from(raw.subarray(0, LOGGED_BODY_BYTES)), bytes: raw.length });
}

/** The body kept for `req`, if one was read. */
export function keptBody(req: IncomingMessage): KeptBody | undefined {
  return keptBodies.get(req);
}

/** Requests the log keeps; the oldest goes first. */
const CAPACITY = REQUEST_LOG_LIMITS.most;

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
  /** The JSON body sent, secrets masked, cut after `LOGGED_BODY_BYTES` (then `…` and the full size). */
  body?: string;
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
  body?: KeptBody;
  /** The key presented with the request, masked wherever the body repeats it. */
  presented?: string;
}

/** The body as the log shows it: text, secrets masked, and `… (N bytes)` when cut. */
function shownBody({ head, bytes }: KeptBody, presented: string | undefined): string {
  // A cut may split a UTF-8 character; the decoder shows that as one replacement character.
  const text = maskSecretsInText(head.toString('utf8'), presented ? [presented] : []);
  return bytes > head.length ? `${text}… (${bytes} bytes)` : text;
}

function formatted(entry: RequestLogEntry, withBody = true): LoggedRequest {
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
    ...(entry.body && withBody ? { body: shownBody(entry.body, entry.presented) } : {}),
  };
}

/** How the console shows each request: a line of text, a JSON line, or nothing. */
export type ConsoleFormat = ServerOptions['requestLines'];

/**
 * The console line of one request: `2026-11-24T07:00:00.123Z GET /path 200 3 ms`
 * (plus the key's name), or the same as one JSON object. Bodies stay in the log.
 */
export function consoleLine(entry: RequestLogEntry, format: Exclude<ConsoleFormat, 'off'>): string {
  // Bodies stay in the log: the console line does not pay for masking them.
  const shown = formatted(entry, false);
  if (format === 'json') return JSON.stringify(shown);
  const key = shown.key ? `  ${shown.key}` : '';
  const replayed = shown.replayed ? ' (replayed)' : '';
  return `${shown.at} ${shown.method} ${shown.path} ${shown.status} ${shown.ms} ms${replayed}${key}`;
}

/**
 * The console lines of requests, written once per turn of the event loop: one write
 * of every line the turn answered instead of one write (a system call) per request,
 * which cost more than half of what logging a page read cost. Lines are formatted at
 * that write, in the order the requests were answered; `flush` writes what is left
 * (the server calls it as it closes), so no line is lost.
 */
export class ConsoleLines {
  private pending: RequestLogEntry[] = [];

  /** `show` gets the lines of a turn, joined by newlines (without a last one). */
  constructor(
    private readonly format: Exclude<ConsoleFormat, 'off'>,
    private readonly show: (lines: string) => void,
  ) {}

  readonly add = (entry: RequestLogEntry): void => {
    if (this.pending.push(entry) === 1) setImmediate(this.flush);
  };

  readonly flush = (): void => {
    if (this.pending.length === 0) return;
    const entries = this.pending;
    this.pending = [];
    let text = consoleLine(entries[0] as RequestLogEntry, this.format);
    for (let i = 1; i < entries.length; i++) text += `\n${consoleLine(entries[i] as RequestLogEntry, this.format)}`;
    this.show(text);
  };
}

/** The last requests the server answered, in a fixed-size ring. */
export class RequestLog {
  private readonly ring: RequestLogEntry[] = [];
  /** Where the next entry goes once the ring is full (= the oldest entry). */
  private next = 0;

  /** `onAdd` sees each entry as it is added (the console lines). */
  constructor(private readonly onAdd?: (entry: RequestLogEntry) => void) {}

  add(entry: RequestLogEntry): void {
    this.onAdd?.(entry);
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
    return inOrder.slice(-limit).map((entry) => formatted(entry));
  }
}
