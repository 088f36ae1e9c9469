/**
 * Limits the interface document leaves to the implementation, as the local
 * server and the OpenAPI document state them. Plain data: the command
 * declarations read it for their help text without loading schema libraries.
 */
import type { BodyKind } from './types.js';

/** Largest page size the local server accepts by default (`--max-page-size`). */
export const DEFAULT_MAX_PAGE_SIZE = 1000;

/**
 * Items one bulk request may carry by default (`--max-bulk-items`): records or ids.
 * The 10 MB body limit alone lets through 3.5 million `{}`, which took the server
 * 73 s and 1.67 GB to fail; 10,000 is twenty of pla's own batches (`--batch-size`
 * 500). The OpenAPI document states it as `maxItems`.
 */
export const DEFAULT_MAX_BULK_ITEMS = 10_000;

/** Bodies that are lists of items (records, ids), capped at the bulk item limit. */
export const ITEM_LIST_BODIES: ReadonlySet<BodyKind> = new Set<BodyKind>(['records', 'ids']);
