/**
 * Errors the server answers with, as RFC 9457 problem details
 * (`application/problem+json`). Handlers throw an `HttpProblem`; the dispatcher
 * turns it into the response, so no handler writes an error body itself.
 */
import type { Noun } from '../contract/wording.js';
import type { FieldProblem } from '../contract/types.js';

/** Problem titles by status; the `type` URI is made from the title unless a `slug` names it. */
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/** Seconds a client is asked to wait (`Retry-After`) when the store cannot be reached. */
export const RETRY_AFTER_SECONDS = 1;

/** 503 with `Retry-After`: the store cannot be reached now; nothing of the request was applied. */
export function storeUnavailable(reason: string): HttpProblem {
  return new HttpProblem(503, `the store is unavailable, nothing was changed; retry later (${reason})`, {
    slug: 'store-unavailable',
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  });
}

/** The problem+json body (RFC 9457) with the field paths at fault. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: FieldProblem[];
}

/** Thrown by handlers and the request pipeline to answer with a problem response. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly options: { errors?: FieldProblem[]; headers?: Record<string, string>; slug?: string } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }

  body(instance: string): ProblemBody {
    const title = TITLES[this.status] ?? 'Error';
    const slug = this.options.slug ?? title.toLowerCase().replace(/\s+/g, '-');
    const body: ProblemBody = { type: `urn:pla:problem:${slug}`, title, status: this.status, detail: this.detail, instance };
    if (this.options.errors?.length) body.errors = this.options.errors;
    return body;
  }
}

/** 404 for an unknown record, naming the ids that were not found. */
export function notFound(noun: Noun, ids: readonly (number | bigint | string)[]): HttpProblem {
  const list = ids.join(', ');
  return new HttpProblem(404, ids.length === 1 ? `${noun[0]} ${list} not found` : `${noun[1]} not found: ${list}`, {
    slug: 'not-found',
    errors: ids.map((id) => ({ path: 'id', message: `${id} not found` })),
  });
}

/** 507: the data folder has no space left; nothing of the request was kept, and it may be retried once space is free. */
export function noSpace(): HttpProblem {
  return new HttpProblem(507, 'no space left on the data folder; nothing was changed — free some space and retry (no restart needed)', { slug: 'no-space' });
}

/** Slug of the problem for a client that went away before its request body was complete. */
export const CLIENT_ABORTED = 'client-aborted';

/**
 * The client closed the connection before its body was complete: nothing is stored,
 * no one reads the answer, and the server log says just that (no stack trace).
 */
export function clientAborted(what: string): HttpProblem {
  return new HttpProblem(400, `the client went away before its ${what} was complete; nothing was stored`, { slug: CLIENT_ABORTED });
}

/** 400 for one bad field. */
export function badField(path: string, message: string): HttpProblem {
  return new HttpProblem(400, `${path}: ${message}`, { slug: 'validation', errors: [{ path, message }] });
}
