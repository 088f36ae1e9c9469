/**
 * Limits the interface document leaves to the implementation, as the local
 * server and the OpenAPI document state them. Plain data: the command
 * declarations read it for their help text without loading schema libraries.
 */

/** Largest page size the local server accepts by default (`--max-page-size`). */
export const DEFAULT_MAX_PAGE_SIZE = 1000;
