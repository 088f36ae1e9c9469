/**
 * Settings of one local server run, as `pla server start` flags give them. Every
 * default lives here so the command's help, the run, the CLI's default URL for
 * environment `local` and the tests agree. Plain data (no schema library): the
 * command declarations read it at start-up.
 */
import { DEFAULT_MAX_BULK_ITEMS, DEFAULT_MAX_PAGE_SIZE } from '../contract/limits.js';
import { WIRE_PROFILES, type FullWireProfile } from '../contract/wire-profile.js';

export interface ServerOptions {
  port: number;
  host: string;
  /** Data folder: the JSON-file store's files, `images/` and `outbox/`. */
  dataDir: string;
  /** `postgres://…`: keep the data in PostgreSQL instead of the data folder's JSON-file store. */
  storeUrl?: string;
  /** Connections to PostgreSQL this process opens at most (the PostgreSQL store only). */
  storePoolSize: number;
  /** The damaged journal line to start before (`--drop-journal-from`, the JSON-file store only). */
  dropJournalFrom?: number;
  /** Load demo data into a fresh data folder (and on `/_admin/reset`). */
  seed: boolean;
  /** Accept any type in the declared fields of accounting records (by default a wrong type is a 400). */
  lenient: boolean;
  /** The console line per request: text, JSON lines, or none (`--quiet`). */
  requestLines: 'text' | 'json' | 'off';
  maxPageSize: number;
  /** Records or ids one bulk request may carry; more is 413 (stated as `maxItems` in the OpenAPI document). */
  maxBulkItems: number;
  /** Largest request body accepted, in bytes; larger is 413. */
  maxBodyBytes: number;
  /** Largest image file accepted by the upload, in bytes; larger is 413. */
  maxImageBytes: number;
  /** Requests per second per key (token bucket); 0 turns the limit off. */
  rateLimit: number;
  /** Added delay before every API request, in milliseconds. */
  latencyMs: number;
  /** Probability (0–1) that an API request fails with an injected 500. */
  failRate: number;
  /** Seconds between automatic task state steps; 0 = tasks only change on request. */
  simulateTasksSeconds: number;
  /** SMTP URL for e-mail notifications; without it they go to `<data>/outbox/`. */
  smtpUrl?: string;
  /** Open connections at most; one more is answered 503 and closed. */
  maxConnections: number;
  /** Open connections at most from one client address, so that one client cannot take every connection; one more is answered 503 and closed. */
  maxConnectionsPerAddress: number;
  /** Time allowed to receive a request's headers (a connection trickling them is cut: 408). */
  headerTimeoutMs: number;
  /** Time allowed to receive a whole request, headers and body (a slow body is cut: 408). */
  requestTimeoutMs: number;
  /** Time allowed for a client to take a written response; a client that does not read is disconnected. */
  writeTimeoutMs: number;
  /** The wire form answers take (`--wire`): envelope, refusals, bulk answers, missing records. */
  wire: FullWireProfile;
}

/** What `pla server start` uses for every flag not given. */
export const DEFAULT_SERVER_OPTIONS: ServerOptions = {
  port: 4010,
  host: '127.0.0.1',
  dataDir: './pla-data',
  // node-postgres's own default, and a tenth of PostgreSQL's default max_connections (100): ten server processes fit as the database comes.
  storePoolSize: 10,
  seed: true,
  lenient: false,
  requestLines: 'text',
  maxPageSize: DEFAULT_MAX_PAGE_SIZE,
  maxBulkItems: DEFAULT_MAX_BULK_ITEMS,
  maxBodyBytes: 10 * 1024 * 1024,
  maxImageBytes: 5 * 1024 * 1024,
  rateLimit: 0,
  latencyMs: 0,
  failRate: 0,
  simulateTasksSeconds: 0,
  maxConnections: 256,
  // Half the connections: 300 connections trickling headers from one address left none for anyone else; the other half stays
  // for other clients. Generous, as every client on this machine shares 127.0.0.1 (a test fires 200 requests at three servers at once).
  maxConnectionsPerAddress: 128,
  // Headers are a few hundred bytes: 10 s is plenty on any network, and a connection trickling them holds its slot no longer.
  headerTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  writeTimeoutMs: 30_000,
  wire: WIRE_PROFILES.pla,
};

/** The largest `--store-pool-size` taken: beyond it a typo, not a plan (PostgreSQL's default max_connections is 100). */
export const MAX_STORE_POOL_SIZE = 1000;

/** Seconds per task step when `--simulate-tasks` is given without a value. */
export const DEFAULT_TASK_STEP_SECONDS = 5;

/** Where a local server started with the defaults listens: the CLI's base URL for environment `local`. */
export const LOCAL_BASE_URL = `http://${DEFAULT_SERVER_OPTIONS.host}:${DEFAULT_SERVER_OPTIONS.port}`;

/** Requests `pla server log` shows by default, and at most. */
export const REQUEST_LOG_LIMITS = { shown: 100, most: 500 } as const;

const UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 };

/** A byte size as the flags take it: `10mb`, `512kb`, or bytes. */
export function formatByteSize(bytes: number): string {
  if (bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2}mb`;
  if (bytes % 1024 === 0) return `${bytes / 1024}kb`;
  return String(bytes);
}

/** Parses a byte size such as `10mb`, `512kb` or `1048576`; throws a readable Error otherwise. */
export function parseByteSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const factor = match ? UNITS[(match[2] ?? '').toLowerCase()] : undefined;
  if (!match || factor === undefined) throw new Error(`not a size: ${text} (use e.g. 10mb, 512kb or a number of bytes)`);
  return Math.floor(Number(match[1]) * factor);
}
