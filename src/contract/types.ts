/**
 * The shape of one row of the contract table. Every consumer (client, commands,
 * local server, OpenAPI document) derives what it needs from these rows; nothing
 * else in the code base spells a path.
 *
 * This module and `operations.ts` are plain data (no zod) so that command
 * registration can read the table without paying for schema libraries.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Resource groups; each has its own command tree and permission prefix. */
export type Resource = 'determinations' | 'settings' | 'tasks' | 'notifications' | 'email-notifications' | 'images' | 'topics';

/**
 * What a successful response carries:
 * - `single` envelope whose data is one record
 * - `list` envelope whose data is an array of records
 * - `void` envelope whose data is null (spec: ResponseVoid)
 * - `page` accounting page (the local server answers shape B)
 * - `notification-page` notification page (shape A)
 * - `count-map` object of string → integer
 * - `array` bare JSON array (notification, email creation; topics)
 * - `schema` metadata endpoints' inline schema
 * - `none` no body at all
 */
export type ResponseKind = 'single' | 'list' | 'void' | 'page' | 'notification-page' | 'count-map' | 'array' | 'schema' | 'none';

/**
 * What a request body is:
 * - `record` one open accounting record; `records` an array of them
 * - `ids` an array of int64 identifiers
 * - `task-filter` the transfer-task search filter
 * - `notification`, `email-notification` the DTOs of spec 2.1 and 2.4
 * - `work-order` object whose values are objects (spec 2.8)
 * - `image-upload` multipart with parts `file` (binary) and `image` (ImageDto JSON)
 */
export type BodyKind = 'record' | 'records' | 'ids' | 'task-filter' | 'notification' | 'email-notification' | 'work-order' | 'image-upload';

/** Type of a path parameter as the spec states it. */
export type PathParamType = 'int64' | 'integer' | 'string' | 'date-time' | 'int64-or-string';

/**
 * How an operation is paged (the query it takes):
 * - `pageable` Spring Pageable flattened into `page`, `size`, `sort` query parameters
 * - `search` explicit `page`, `size`, `sort[]` query parameters
 * - `notifications` `page`, `size`, no sort
 */
export type Paging = 'pageable' | 'search' | 'notifications';

/**
 * Page shapes of spec 2.3: `content+page` is shape B (`content` plus a `page`
 * object, the accounting listings), `flat` is shape A (Spring's flat page, the
 * notification listings).
 */
export type PageShape = 'content+page' | 'flat';

/** Everything about an operation's paging: query style, answer shape and the default size. */
export interface PagingSpec {
  readonly style: Paging;
  readonly shape: PageShape;
  /** Page size when the request names none (spec: 100, notifications 10). */
  readonly defaultSize: number;
  /** Whether `sort` is taken. */
  readonly sortable: boolean;
}

export interface PathParam {
  readonly name: string;
  readonly type: PathParamType;
}

export interface QueryParam {
  readonly name: string;
  readonly type: 'boolean';
  readonly default: boolean;
  readonly description: string;
}

/**
 * One row of the contract table as it is written (`operations.ts`); the omitted
 * fields take their defaults in `Operation`. Operation references (`bulk`, `read`,
 * `list`) are checked against `OperationId` where the table is declared.
 */
export interface OperationRow {
  /** Stable id, `<resource>.<verb>`, used by code and tests. */
  readonly id: string;
  readonly resource: Resource;
  /** The operation's name as the spec's table gives it. */
  readonly summary: string;
  readonly method: HttpMethod;
  /** Full path template relative to the base URL, with `{param}` placeholders. */
  readonly path: string;
  readonly pathParams?: readonly PathParam[];
  /** Non-paging query parameters. */
  readonly query?: readonly QueryParam[];
  readonly paging?: PagingSpec;
  readonly body?: { readonly kind: BodyKind; readonly required: boolean };
  readonly response: ResponseKind;
  /** The success status the spec gives (the local server answers exactly this). */
  readonly status?: 200 | 201 | 204;
  /** Other statuses a real service may answer on success (spec lists two variants). */
  readonly altStatuses?: readonly number[];
  /** Deletes, decommissions, removes or cancels: needs confirmation in the CLI. */
  readonly destructive?: boolean;
  /** The operation doing the same for many records or ids in one request, when there is one. */
  readonly bulk?: string;
  /** The operation that reads one record of this resource by id (what `--dry-run` shows). */
  readonly read?: string;
  /** The listing that pages through this operation's collection (how current state is read). */
  readonly list?: string;
  /** What the operation did to a record, in the past tense (`deleted`); writes only. */
  readonly done?: string;
}

/** One field-level problem, as problem bodies (RFC 9457) list them under `errors`. */
export interface FieldProblem {
  path: string;
  message: string;
}
