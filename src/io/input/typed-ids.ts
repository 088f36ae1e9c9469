/**
 * Ids typed on the command line (positional arguments, `--ids 1,2,3`). Its own
 * module with no readers behind it: `get 7` parses its id without loading csv or
 * streaming-json code.
 */
import { INT64_MAX, type RecordId, toRecordId } from '../../contract/ids.js';
import { UsageError } from '../../errors.js';

export type { RecordId };

/** A positive integer id from a number or its decimal text (up to int64's maximum); `undefined` if it is not one. */
export const parseId = toRecordId;

/** Typed ids in order, blanks left out; a bad one is a `UsageError` (nothing has been sent yet). */
export function typedIds(texts: readonly string[]): RecordId[] {
  return texts
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .map((text) => {
      const id = parseId(text);
      if (id === undefined) throw new UsageError(`'${text}' is not an id: ids are positive integers up to ${INT64_MAX}`);
      return id;
    });
}
