/**
 * What an operation handler receives and returns. Handlers compute a request's
 * effect from the store and commit it in one `store.commit`; the dispatcher owns
 * HTTP (status, envelope, page shape, problems).
 */
import type { IncomingMessage } from 'node:http';
import type { Operation } from '../contract/types.js';
import type { Store } from '../store/types.js';
import type { ImageFiles } from './image-files.js';
import type { Mailer } from './mailer.js';
import type { ServerOptions } from './options.js';
import type { PageRequest } from './paging.js';

export interface ServerContext {
  store: Store;
  options: ServerOptions;
  mailer: Mailer;
  images: ImageFiles;
}

export interface OperationCall {
  op: Operation;
  /** Path parameters under the contract's names, validated and coerced. */
  params: Record<string, unknown>;
  query: URLSearchParams;
  /** Present for paged operations. */
  paging?: PageRequest;
  /** The validated JSON body (`undefined` when none; the raw request for multipart). */
  body: unknown;
  req: IncomingMessage;
  /** Request time, ISO 8601; every record a request touches gets the same stamp. */
  now: string;
}

export interface OperationOutcome {
  /** Envelope `data`, or the bare body for pages, arrays, count maps and schemas. */
  data?: unknown;
  /** Envelope `message`. */
  message?: string;
  headers?: Record<string, string>;
}

export type OperationHandler = (call: OperationCall, ctx: ServerContext) => OperationOutcome | Promise<OperationOutcome>;
