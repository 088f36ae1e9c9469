/**
 * The one client object: base URL (with any path prefix), key, user agent, JSON
 * in and out, envelopes, pages, retries, timeouts and the connection pool. Paths
 * come only from the contract table.
 */
import { expandPath, type Operation, operation, type OperationId, verbOf } from '../contract/operations.js';
import { ApiError, PlaError, ServerError, UnreadableAnswerError } from '../errors.js';
import { jsonText } from '../json/json-text.js';
import { CLIENT_DEFAULTS } from './defaults.js';
import { readAnswer } from './answer.js';
import { MAX_ANSWER_DEPTH, nestedDeeperThan, TooDeepAnswer } from './nesting.js';
import { isObject, parseBody, type Unwrapped } from './envelope.js';
import { httpError, statedFailureError } from './error-mapping.js';
import { buildImageUpload } from './multipart.js';
import { readPage } from './page-shapes.js';
import { type FetchPage, PageWalk } from './page-walk.js';
import { chooseProxy } from './proxy.js';
import { redactSecret } from './redact.js';
import { longWait, safeToRepeat } from './retry-policy.js';
import { createStreamedBody, type StreamedBody } from './streamed-body.js';
import { createTransport, type OutgoingRequest, type RawResponse, type TransportOptions } from './transport.js';
import type { CallOptions, CallResult, ClientOptions, Page, PageRequest, PagesOptions, PagingFacts, PlaClient, WalkCallOptions } from './types.js';
import { defaultUserAgent } from './user-agent.js';

type QueryValues = Record<string, string | number | boolean | undefined>;

/** `page`, `size` and repeated `sort` (Spring's Pageable flattened, spec 4.3), then the extra query. */
function queryString(paging: PageRequest | undefined, query: QueryValues | undefined): string {
  const params = new URLSearchParams();
  if (paging?.page !== undefined) params.set('page', String(paging.page));
  if (paging?.size !== undefined) params.set('size', String(paging.size));
  for (const criterion of paging?.sort ?? []) params.append('sort', criterion);
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * A path typed by hand (`pla api GET '/api/topics/a b'`) as a valid request target:
 * spaces and non-ASCII percent-encoded, escapes already there kept, the fragment
 * dropped. Prefixed with an origin so that `//host/x` stays a path.
 */
function requestTarget(path: string): string {
  const url = new URL(`http://pla.invalid${path}`);
  return url.pathname + url.search;
}

/** Proxy and trusted CAs for a client that makes its own dispatcher. */
function connectionSettings(options: ClientOptions): Partial<Pick<TransportOptions, 'proxy' | 'configuredProxy' | 'variables' | 'ca' | 'caFile'>> {
  const variables = options.variables ?? {};
  const proxy = chooseProxy(options.baseUrl, options.proxy, variables);
  return {
    variables,
    ...(proxy ? { proxy } : {}),
    ...(options.proxy ? { configuredProxy: options.proxy } : {}),
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    ...(options.caFile ? { caFile: options.caFile } : {}),
  };
}

/** Creates a client; nothing is connected until the first call. */
export function createClient(options: ClientOptions): PlaClient {
  const base = new URL(options.baseUrl);
  // The base URL may carry a path prefix (spec 5: `{base_url}/data/api/v1/…`).
  const prefix = base.pathname.replace(/\/+$/, '');
  const apiKey = options.apiKey;
  const transport = createTransport({
    origin: base.origin,
    retries: options.retries ?? CLIENT_DEFAULTS.retries,
    timeoutMs: options.timeoutMs ?? CLIENT_DEFAULTS.timeoutSeconds * 1000,
    maxAnswerBytes: options.maxAnswerBytes ?? CLIENT_DEFAULTS.maxAnswerBytes,
    ...(options.dispatcher !== undefined ? { dispatcher: options.dispatcher } : connectionSettings(options)),
    ...(options.trace ? { trace: options.trace } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  const userAgent = options.userAgent ?? defaultUserAgent();

  function signalFor(callSignal: AbortSignal | undefined): AbortSignal | undefined {
    if (options.signal && callSignal) return AbortSignal.any([options.signal, callSignal]);
    return callSignal ?? options.signal;
  }

  /** Every error made from an answer goes through here: the service may echo the key. */
  function scrubbed<E extends PlaError>(error: E): E {
    return apiKey ? redactSecret(error, apiKey) : error;
  }

  /** Runs `read`; an error it throws is scrubbed of the key like every error made from an answer. */
  function scrubbedOnThrow<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw error instanceof PlaError ? scrubbed(error) : error;
    }
  }

  /** Sends a request and returns the parsed body; throws the mapped error on a non-2xx answer. */
  async function exchange(
    method: string,
    path: string,
    body: { payload: string | Buffer; contentType: string } | undefined,
    call: { signal?: AbortSignal | undefined; repeatable: boolean; idempotencyKey?: string | undefined; streamed?: boolean },
  ): Promise<{ response: RawResponse; parsed: unknown }> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
    if (apiKey) headers['x-api-key'] = apiKey;
    if (body) headers['content-type'] = body.contentType;
    // One key per logical call on every write: each attempt sends these same headers.
    // node:crypto is loaded only here: a GET should not pay for it at start-up.
    if (method !== 'GET' && method !== 'HEAD' && options.idempotencyKeys !== false) {
      headers['idempotency-key'] = call.idempotencyKey ?? (await import('node:crypto')).randomUUID();
    }
    const repeatable = call.repeatable || options.retryUnsafe === true;
    const request: OutgoingRequest = { method, path: prefix + path, headers, repeatable, ...(body ? { body: body.payload } : {}) };
    const abort = signalFor(call.signal);
    if (abort) request.signal = abort;

    // A success read as it arrives (list pages): its records are held, never its text too. Errors are collected.
    let streamed: StreamedBody | undefined;
    if (call.streamed) request.sink = (status) => (status >= 200 && status < 300 ? (streamed = createStreamedBody()) : undefined);

    const response = await transport.send(request);
    const ok = response.status >= 200 && response.status < 300;
    const contentType = response.headers['content-type'];
    // Read leniently: a success that is not JSON (an HTML page, even one labelled JSON) is the
    // operation's reader's to name (answer.ts), as an answer that confirms nothing.
    const parsed = streamed ? await streamed.end() : parseBody(response.body, typeof contentType === 'string' ? contentType : undefined, false);
    if (!ok) {
      // A refusal whose body is nested too deep to walk is still the refusal its status says; its body is not read.
      const problem = nestedDeeperThan(parsed, MAX_ANSWER_DEPTH) ? new TooDeepAnswer() : parsed;
      const error = scrubbed(httpError(response.status, response.statusText, problem, transport.label(request, response.attempts), response.headers.location));
      // A 5xx says the service received the request, not whether it was carried out.
      if (response.status >= 500 && !repeatable) error.outcomeUnknown = true;
      const wait = longWait(response.headers['retry-after']);
      if (wait !== undefined && error.request) error.request.retryAfterS = wait;
      throw error;
    }
    return { response, parsed };
  }

  async function requestBody(callOptions: CallOptions) {
    if (callOptions.upload) {
      const multipart = await buildImageUpload(callOptions.upload);
      return { payload: multipart.body, contentType: multipart.contentType };
    }
    if (callOptions.body === undefined) return undefined;
    return { payload: jsonText(callOptions.body), contentType: 'application/json' };
  }

  /** Reads a 2xx answer of `op` (sent to `path`) by the environment's profile, else by the general rules. */
  function answerOf(op: Operation, path: string, response: RawResponse, parsed: unknown, params: CallOptions['params'], repeatable: boolean) {
    const contentType = response.headers['content-type'];
    return scrubbedOnThrow(() =>
      readAnswer(parsed, {
        op,
        status: response.status,
        contentType: typeof contentType === 'string' ? contentType : undefined,
        where: `${op.method} ${prefix}${path}`,
        ...(params ? { params } : {}),
        ...(options.wire ? { wire: options.wire } : {}),
        failed: (failure, body) => {
          const error = statedFailureError(
            response.status,
            failure,
            body,
            transport.label({ method: op.method, path: prefix + path, headers: {}, repeatable }, response.attempts),
          );
          // A 5xx stated inside a 200 says no more than a real one: the change may have been made.
          if (error instanceof ServerError && !repeatable) error.outcomeUnknown = true;
          return error;
        },
      }),
    );
  }

  /**
   * A create answered without its record but with a `Location` (201 and no body, as
   * many services answer): the record read back from there, when the Location is
   * on the service's own origin under its base path. Anything else is an answer
   * that confirms nothing (UnreadableAnswerError: the caller reads back or reports
   * the outcome unknown). Never followed for other writes, nor to another host: the
   * key goes only where the base URL says.
   */
  async function fromLocation(op: Operation, path: string, response: RawResponse, saw: string, signal: AbortSignal | undefined): Promise<CallResult> {
    const location = String(response.headers.location);
    const unreadable = (why: string, cause?: unknown) =>
      scrubbed(
        new UnreadableAnswerError(
          `the service answered ${saw} (status ${response.status}) with Location ${location}; ${why} (${op.method} ${prefix}${path})`,
          response.status,
          saw,
          undefined,
          ...(cause instanceof ApiError && cause.request ? [{ request: cause.request }] : []),
        ),
      );
    let target: URL;
    try {
      target = new URL(location, `${base.origin}${prefix}${path}`);
    } catch {
      throw unreadable('not read: it is not a URL');
    }
    if (target.origin !== base.origin || !(target.pathname === prefix || target.pathname.startsWith(`${prefix}/`)))
      throw unreadable(`not read: it is not under the base URL ${base.origin}${prefix}`);
    const read = operation(op.read as OperationId);
    const relative = target.pathname.slice(prefix.length);
    // The id the Location names, when it is the read's own path: the answer must then be that record.
    const last = relative.slice(relative.lastIndexOf('/') + 1);
    const params = /^\d+$/.test(last) && expandPath(read, { id: last }) === relative ? { id: last } : undefined;
    try {
      const { response: readResponse, parsed } = await exchange('GET', relative + target.search, undefined, { signal, repeatable: true });
      const record = answerOf(read, relative, readResponse, parsed, params, true).data;
      if (!isObject(record) || record.id === undefined) throw unreadable(`reading it back gave no record with an id`);
      return {
        status: response.status,
        data: record,
        message: `the answer had no record; read back from its Location ${target.pathname}`,
        headers: response.headers,
      };
    } catch (error) {
      if (error instanceof UnreadableAnswerError || !(error instanceof ApiError)) throw error;
      throw unreadable(`reading it back failed: ${error.message}`, error);
    }
  }

  /** Whether an answer of `op` without its record may be completed from a Location: a create (or an upsert that created) with a read. */
  function locatable(op: Operation, response: RawResponse): boolean {
    const verb = verbOf(op.id);
    return (
      (verb === 'create' || verb === 'upsert') &&
      op.response === 'single' &&
      op.read !== undefined &&
      (response.status === 200 || response.status === 201) &&
      typeof response.headers.location === 'string' &&
      response.headers.location !== ''
    );
  }

  async function call<T>(operationId: OperationId, callOptions: CallOptions = {}): Promise<CallResult<T>> {
    const op = operation(operationId);
    const path = expandPath(op, callOptions.params) + queryString(op.paging ? callOptions.paging : undefined, callOptions.query);
    const repeatable = safeToRepeat({ operationId: op.id, method: op.method, body: callOptions.body });
    const { response, parsed } = await exchange(op.method, path, await requestBody(callOptions), {
      signal: callOptions.signal,
      repeatable,
      idempotencyKey: callOptions.idempotencyKey,
      // A page's verdict may come after its records: the page is read whole (records, not text) before it is judged.
      streamed: op.paging !== undefined,
    });
    let unwrapped: Unwrapped;
    try {
      unwrapped = answerOf(op, path, response, parsed, callOptions.params, repeatable);
    } catch (error) {
      if (error instanceof UnreadableAnswerError && locatable(op, response))
        return (await fromLocation(op, path, response, error.saw, callOptions.signal)) as CallResult<T>;
      throw error;
    }
    if (locatable(op, response) && !isObject(unwrapped.data)) return (await fromLocation(op, path, response, 'no record', callOptions.signal)) as CallResult<T>;
    return {
      status: response.status,
      data: unwrapped.data as T,
      ...(unwrapped.message !== undefined ? { message: unwrapped.message } : {}),
      ...(unwrapped.success ? { success: true as const } : {}),
      ...(parsed === undefined ? { empty: true as const } : {}),
      // The profile says bulk requests are answered item by item: an answer without its items confirms none of them.
      ...(options.wire?.bulkItems === 'per-item' && (op.body?.kind === 'records' || op.body?.kind === 'ids') ? { perItem: true as const } : {}),
      headers: response.headers,
    };
  }

  /** How the service pages, as the profile says and the walks find out; shared by every walk of this client. */
  const pagingFacts: PagingFacts = {
    ...(options.wire?.page?.base !== undefined ? { base: options.wire.page.base } : {}),
    ...(options.wire?.page?.maxSize !== undefined ? { cap: options.wire.page.maxSize } : {}),
  };

  function walk<T>(operationId: OperationId, callOptions: WalkCallOptions = {}): PageWalk<T> {
    const { allowDrift, notice, paging, ...rest } = callOptions;
    const fetch: FetchPage<T> = async (wirePage, size) => {
      // The first page of a walk from no named page goes without `page`: every service's default is its first page.
      const page = paging?.page === undefined && wirePage === (pagingFacts.base ?? 0) ? undefined : wirePage;
      const result = await call(operationId, { ...rest, paging: { ...paging, page, size } });
      return readPage<T>(result.data, operationId);
    };
    return new PageWalk<T>(fetch, pagingFacts, {
      label: operationId,
      ...(paging?.size !== undefined ? { size: paging.size } : {}),
      ...(allowDrift !== undefined ? { allowDrift } : {}),
      ...(notice ? { notice } : {}),
    });
  }

  async function page<T>(operationId: OperationId, callOptions: WalkCallOptions = {}): Promise<Page<T>> {
    return walk<T>(operationId, callOptions).read(callOptions.paging?.page ?? 0);
  }

  async function* pages<T>(operationId: OperationId, callOptions: PagesOptions = {}): AsyncGenerator<Page<T>> {
    const { maxItems, ...rest } = callOptions;
    if (maxItems !== undefined && maxItems <= 0) return;
    const walker = walk<T>(operationId, rest);
    const start = rest.paging?.page ?? 0;
    let number = start;
    let seen = 0;
    for (;;) {
      const current = await walker.read(number);
      if (maxItems !== undefined && seen + current.items.length >= maxItems) {
        yield { ...current, items: current.items.slice(0, maxItems - seen), last: true };
        walker.finish();
        return;
      }
      seen += current.items.length;
      yield current;
      if (current.last) break;
      number += 1;
    }
    walker.finish({ complete: start === 0 });
  }

  async function raw(
    method: string,
    path: string,
    rawOptions: { body?: unknown; query?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<CallResult> {
    const relative = requestTarget(path.startsWith('/') ? path : `/${path}`);
    const query = queryString(undefined, rawOptions.query);
    const fullPath = query && relative.includes('?') ? `${relative}&${query.slice(1)}` : relative + query;
    const body = rawOptions.body === undefined ? undefined : { payload: jsonText(rawOptions.body), contentType: 'application/json' };
    const upper = method.toUpperCase();
    const { response, parsed } = await exchange(upper, fullPath, body, { signal: rawOptions.signal, repeatable: safeToRepeat({ method: upper }) });
    return { status: response.status, data: parsed, headers: response.headers };
  }

  return {
    call,
    page,
    pages,
    walk,
    paging: () => ({ ...pagingFacts }),
    raw,
    close: () => transport.close(),
  };
}
