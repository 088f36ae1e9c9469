/**
 * Reading a resource's declared field types from the service (field-types.ts says
 * how they are used): its `meta` answer when it reads as a JSON Schema, else the
 * types its existing records show on a first page, else none (every cell guessed).
 */
import type { PlaClient } from '../client/types.js';
import { verbOperation } from '../contract/operations.js';
import { ApiError } from '../errors.js';
import { type FieldTypes, NO_TYPES, typesFromRecords, typesFromSchema } from './field-types.js';
import type { StoredRecordLike } from './types.js';

/** Records of a first page read for their types when the service describes none. */
const SAMPLE = 100;

/** The field types of `resource` as the service declares them (see the module comment). */
export async function readFieldTypes(client: PlaClient, resource: string, signal?: AbortSignal): Promise<FieldTypes> {
  const meta = verbOperation(resource, 'meta');
  if (meta) {
    try {
      const { data } = await client.call(meta.id, { signal });
      const declared = typesFromSchema(data);
      if (declared && declared.declared.size > 0) return declared;
    } catch (error) {
      // A service without a usable meta answer (404, 501, a refusal): the records say instead.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  const list = verbOperation(resource, 'list');
  if (!list) return NO_TYPES;
  const page = await client.page<StoredRecordLike>(list.id, { paging: { page: 0, size: SAMPLE }, signal });
  return typesFromRecords(page.items);
}
