/**
 * What an operation handler receives and returns. Handlers compute a request's
 * effect from the store and commit it in one `store.commit`; the dispatcher owns
 * HTTP (status, envelope, page shape, problems).
 */
import type { IncomingMessage } from 'node:http';
import type { Operation } from '../contract/operations.js';
import type { Store } from '../store/types.js';
import type { ImageFiles } from './image-files.js';
import type { Mailer } from './mailer.js';
import type { ServerOptions } from './options.js';
import type { PageRequest } from './paging.js';

/**
 * Response header naming the body fields a DTO does not have: a Jackson-based service
 * drops them silently, and so does this server (the request succeeds), but it says so.
 */
export const IGNORED_FIELDS_HEADER = 'pla-ignored-fields';

/** What every handler may use besides its call: the store, the run's options, mail and image files. */
export interface ServerContext {
  store: Store;
  options: ServerOptions;
  mailer: Mailer;
  images: ImageFiles;
}

/** One request to one operation, read and validated by the dispatcher. */
export interface OperationCall {
  op: Operation;
  /** Path parameters under the contract's names, validated and coerced. */
  params: Record<string, unknown>;
  query: URLSearchParams;
  /** Present for paged operations. */
  paging?: PageRequest;
  /**
   * The JSON body, validated (open records as sent, every field kept); `undefined`
   * when there is none and for a multipart upload, which the handler reads from `req`.
   */
  body: unknown;
  req: IncomingMessage;
  /** Body fields the DTO does not have, dropped (`body.colour`): named in a response header. */
  ignored: readonly string[];
  /** Request time, ISO 8601; every record a request touches gets the same stamp. */
  now: string;
}

/** What a handler answers; the dispatcher shapes it into the reply the contract row calls for. */
export interface OperationOutcome {
  /** Envelope `data`, or the bare body for pages, arrays, count maps and schemas. */
  data?: unknown;
  /** Envelope `message`. */
  message?: string;
  headers?: Record<string, string>;
}

/** Runs one operation; throws an `HttpProblem` to answer with a problem. */
export type OperationHandler = (call: OperationCall, ctx: ServerContext) => OperationOutcome | Promise<OperationOutcome>;
