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

/**
 * Characters a header value cannot carry as they are (node refuses anything but tab,
 * visible ASCII and Latin-1, and writing such a header throws), and `%`, so that an
 * escape is never ambiguous.
 */
const NOT_IN_HEADER = /[^ -$&-~]/gu;

/** One byte as a percent escape. */
const escapeByte = (byte: number): string => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * The `IGNORED_FIELDS_HEADER` header naming `names` (`body.colour`). A field name is
 * the client's to choose (`"日本"`, `"a\nb"`): what a header cannot carry is sent as
 * the percent escapes of its UTF-8 bytes, a lone surrogate as U+FFFD's.
 */
export function ignoredFieldsHeader(names: readonly string[]): Record<string, string> {
  const value = names.join(', ').replace(NOT_IN_HEADER, (character) => Array.from(Buffer.from(character), escapeByte).join(''));
  return { [IGNORED_FIELDS_HEADER]: value };
}

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
