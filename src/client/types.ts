/**
 * The client's public surface. One `PlaClient` owns base URL, key, user agent,
 * JSON, envelopes, pages, retries and the connection pool; commands call it and
 * never speak HTTP themselves.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { OperationId } from '../contract/operations.js';
import type { WireProfile } from '../contract/wire-profile.js';

export interface ClientOptions {
  baseUrl: string;
  /** Sent as `x-api-key`; never printed. */
  apiKey?: string;
  /** Retries after the first attempt (default 3, so 4 attempts at most). */
  retries?: number;
  /** Per-attempt deadline in milliseconds, headers and whole answer (default 30 000). */
  timeoutMs?: number;
  /** Most bytes one answer may have (default 64 MB); a larger one fails with a NetworkError. */
  maxAnswerBytes?: number;
  /** Request trace on this function (stderr in the CLI), key redacted. */
  trace?: (line: string) => void;
  /** The undici dispatcher to send through; tests may inject one (proxy and CA are then its business). */
  dispatcher?: Dispatcher;
  /**
   * The environment's configured proxy URL. Without one, HTTPS_PROXY/HTTP_PROXY
   * apply as curl reads them; NO_PROXY applies to both (src/client/proxy.ts).
   */
  proxy?: string;
  /** The environment variables HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read from (the run's; default none). */
  variables?: Readonly<Record<string, string | undefined>>;
  /** PEM text of certificate authorities to trust besides Node's own. */
  ca?: string;
  /** The file `ca` was read from, named in the hint of a certificate error. */
  caFile?: string;
  userAgent?: string;
  /** The environment this client serves; failed requests carry it (errors' `request.env`). */
  env?: string;
  /**
   * Send an `Idempotency-Key` (a random UUID per logical call, unless the call names
   * one) on every write. Default true; false for a service that refuses unknown headers.
   */
  idempotencyKeys?: boolean;
  /**
   * Repeat calls that create after 5xx, timeouts and resets too (`--retry-unsafe`):
   * right against a service that honours the `Idempotency-Key`, else they may create
   * twice. By default they are retried only on 429 and before anything was sent.
   */
  retryUnsafe?: boolean;
  /** Aborts every request in flight (Ctrl-C). */
  signal?: AbortSignal;
  /**
   * How the environment's service speaks (`pla config detect`); what it leaves out
   * is found out per run by the rules of the page walker and the envelope reader.
   */
  wire?: WireProfile;
}

/** Paging request: zero-based page, size, sort criteria `field,asc|desc`. */
export interface PageRequest {
  page?: number;
  size?: number;
  sort?: string[];
}

export interface CallOptions {
  /** Path parameters by name, e.g. `{ id: 7 }`. */
  params?: Record<string, string | number | bigint>;
  /** Extra query parameters (non-paging). */
  query?: Record<string, string | number | boolean | undefined>;
  paging?: PageRequest;
  /** JSON body. */
  body?: unknown;
  /** Multipart body for the image upload. */
  upload?: ImageUpload;
  signal?: AbortSignal;
  /**
   * The `Idempotency-Key` to send instead of a fresh one: a bulk run derives its keys
   * from the run and the batch, so a resumed run repeats a batch under the same key.
   */
  idempotencyKey?: string;
}

/** A paged read: the call, plus what the page walker does with drift and what it tells a person. */
export interface WalkCallOptions extends CallOptions {
  /** Records added or removed during the walk are a warning, not an error. */
  allowDrift?: boolean;
  /** Lines for a person (stderr): what the walker found out about the service, drift accepted. */
  notice?: (line: string) => void;
}

export interface PagesOptions extends WalkCallOptions {
  /** Stop after this many records. */
  maxItems?: number;
}

export interface ImageUpload {
  /** File bytes as a stream or buffer, with the file name and media type to send. */
  file: Readable | Buffer;
  fileName: string;
  contentType?: string;
  /** ImageDto, sent as the `image` part (application/json). */
  image: Record<string, unknown>;
}

/** A successful response, envelope unwrapped. */
export interface CallResult<T = unknown> {
  status: number;
  /** The envelope's `data` when there is an envelope, else the body; `undefined` when no body. */
  data: T;
  /** The envelope's `message`, when there is one. */
  message?: string;
  /** The envelope said outright that the call succeeded (`success: true`, code 0): a confirmation even without data. */
  success?: true;
  /** The answer had no body at all (a 204, an empty 200): for a write answering no data, the plain "done". */
  empty?: true;
  /**
   * The environment's profile says bulk requests are answered item by item
   * (`bulkItems=per-item`): an answer without a result per item confirms none of
   * them (src/confirm/item-results.ts).
   */
  perItem?: true;
  headers: Record<string, string | string[] | undefined>;
  /**
   * Of a paged operation: the whole body as answered, envelope and all, so the page
   * reader sees a count or next link beside the records (`{"data": […], "total": 250}`).
   */
  body?: unknown;
}

/** One page, whatever shape (A or B) the service answered with. */
export interface Page<T = Record<string, unknown>> {
  items: T[];
  number: number;
  size: number;
  totalElements?: number;
  totalPages?: number;
  last: boolean;
}

/** What is known of how the service pages: from the wire profile, else found out by the first walk that needs it. */
export interface PagingFacts {
  /** The `page` parameter of the first page. */
  base?: 0 | 1;
  /** The most records the service answers a page. */
  cap?: number;
  /** `links`: the service ignores page numbers; pages after the first are reached only by its next links or cursors. */
  follow?: 'numbers' | 'links';
}

/** One walk over a listing (src/client/page-walk.ts). */
export interface PageWalker<T> {
  /** Makes sure the page base is known, so that pages may then be read several at once. */
  settle(): Promise<void>;
  /** Page `index` (zero-based, as pla counts), checked; its records not handed out before in this walk. */
  read(index: number): Promise<Page<T>>;
  /**
   * Whether a later page can be asked for by its number (`--page N`), as far as the
   * walk can tell: false on a service that ignores page numbers (it pages by links
   * or cursors only), where `--page N` is refused.
   */
  numbered(): Promise<boolean>;
  /** Throws `PagingDriftError` when the records changed during the walk (unless allowed); `complete`: every page was read. */
  finish(options?: { complete?: boolean }): void;
}

export interface PlaClient {
  /** The environment's wire profile this client reads answers by, when it has one. */
  readonly wire?: WireProfile;
  /** Calls one operation of the contract by id. Throws an `ApiError` subclass on failure. */
  call<T = unknown>(operationId: OperationId, options?: CallOptions): Promise<CallResult<T>>;
  /** Reads one page of a paged operation (`paging.page` zero-based), normalised and checked (src/client/page-walk.ts). */
  page<T = Record<string, unknown>>(operationId: OperationId, options?: WalkCallOptions): Promise<Page<T>>;
  /**
   * Yields every page of a paged operation from `paging.page` on, until the last
   * page or `maxItems` records, each record once; throws `PagingDriftError` at the
   * end when the records changed during the walk (unless `allowDrift`).
   */
  pages<T = Record<string, unknown>>(operationId: OperationId, options?: PagesOptions): AsyncIterable<Page<T>>;
  /** A walk whose pages the caller reads itself, several at once after `settle()`; `finish()` reports drift. */
  walk<T = Record<string, unknown>>(operationId: OperationId, options?: WalkCallOptions): PageWalker<T>;
  /** What this client knows of how the service pages (from the profile or found out so far). */
  paging(): PagingFacts;
  /** Raw call for `pla api`: any method and path, JSON body; envelope not unwrapped. */
  raw(method: string, path: string, options?: { body?: unknown; query?: Record<string, string>; signal?: AbortSignal }): Promise<CallResult>;
  close(): Promise<void>;
}
