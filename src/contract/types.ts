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
export type Resource =
  | 'determinations'
  | 'settings'
  | 'tasks'
  | 'notifications'
  | 'email-notifications'
  | 'images'
  | 'topics';

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
export type ResponseKind =
  | 'single'
  | 'list'
  | 'void'
  | 'page'
  | 'notification-page'
  | 'count-map'
  | 'array'
  | 'schema'
  | 'none';

/**
 * What a request body is:
 * - `record` one open accounting record; `records` an array of them
 * - `ids` an array of int64 identifiers
 * - `task-filter` the transfer-task search filter
 * - `notification`, `email-notification` the DTOs of spec 2.1 and 2.4
 * - `work-order` object whose values are objects (spec 2.8)
 * - `image-upload` multipart with parts `file` (binary) and `image` (ImageDto JSON)
 */
export type BodyKind =
  | 'record'
  | 'records'
  | 'ids'
  | 'task-filter'
  | 'notification'
  | 'email-notification'
  | 'work-order'
  | 'image-upload';

/** Type of a path parameter as the spec states it. */
export type PathParamType = 'int64' | 'integer' | 'string' | 'date-time' | 'int64-or-string';

/**
 * How an operation is paged:
 * - `pageable` Spring Pageable flattened into `page`, `size`, `sort` query parameters (default size 100)
 * - `search` explicit `page`, `size`, `sort[]` query parameters (default size 100)
 * - `notifications` `page`, `size` (default size 10)
 */
export type Paging = 'pageable' | 'search' | 'notifications';

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

export interface Operation {
  /** Stable id, `<resource>.<verb>`, used by code and tests. */
  readonly id: string;
  readonly resource: Resource;
  /** The operation's name as the spec's table gives it. */
  readonly summary: string;
  readonly method: HttpMethod;
  /** Full path template relative to the base URL, with `{param}` placeholders. */
  readonly path: string;
  readonly pathParams: readonly PathParam[];
  /** Non-paging query parameters. */
  readonly query: readonly QueryParam[];
  readonly paging?: Paging;
  readonly body?: { readonly kind: BodyKind; readonly required: boolean };
  readonly response: ResponseKind;
  /** The success status the spec gives (the local server answers exactly this). */
  readonly status: 200 | 201 | 204;
  /** Other statuses a real service may answer on success (spec lists two variants). */
  readonly altStatuses?: readonly number[];
  /** Permission a key needs, `<resource>:read|write`. */
  readonly permission: string;
  /** Deletes, decommissions, removes or cancels: needs confirmation in the CLI. */
  readonly destructive: boolean;
}
