/**
 * Record ids in paths whose contract type is a string (notification ids, key ids),
 * read as every id is (`parseRecordId`: plain digits only).
 */
import { parseRecordId, type RecordId } from '../contract/ids.js';

/** The id `raw` names, or undefined when it is not plain decimal digits of a positive int64. */
export function idFromPath(raw: unknown): RecordId | undefined {
  return typeof raw === 'string' ? parseRecordId(raw) : undefined;
}
