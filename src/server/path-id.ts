/**
 * Record ids in paths whose contract type is a string (notification ids, key ids),
 * read as every id is (`parseRecordId`: plain digits only).
 */
import { parseRecordId } from '../contract/ids.js';

/** The id `raw` names, or undefined when it is not plain decimal digits of a positive safe integer (no record has a larger id). */
export function idFromPath(raw: unknown): number | undefined {
  const id = typeof raw === 'string' ? parseRecordId(raw) : undefined;
  return typeof id === 'number' ? id : undefined;
}
